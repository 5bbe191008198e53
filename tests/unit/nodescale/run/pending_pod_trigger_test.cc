// A list's pending pods and CapacityBuffers open the batch only once the
// store shows them: an iteration that runs between a page and the end of
// its list spends the batch without seeing them, and they would then wait
// for the next scan.
#include "nodescale/run/pending_pod_trigger.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace propscaler::nodescale {
namespace {

template <typename T>
kube::ReflectorSink<T> StagingSink(std::vector<T>* staged,
                                   std::vector<T>* visible) {
  kube::ReflectorSink<T> sink;
  sink.upsert = [visible](const T& item) { visible->push_back(item); };
  sink.remove = [](const T&) {};
  sink.stage = [staged](std::vector<T> page, bool first) {
    if (first) staged->clear();
    staged->insert(staged->end(), page.begin(), page.end());
  };
  sink.commit = [staged, visible] { *visible = std::move(*staged); };
  return sink;
}

kube::LivePod UnschedulablePod(const std::string& uid) {
  kube::LivePod pod;
  pod.uid = uid;
  pod.unschedulable = true;
  return pod;
}

TEST(PendingPodTriggerTest, AListedPendingPodOpensTheBatchOnceCommitted) {
  VirtualClock clock;
  PendingPodTrigger trigger(&clock, BatchWindow{}, -10);
  std::vector<kube::LivePod> staged, visible;
  auto sink = trigger.Wrap(StagingSink(&staged, &visible));
  sink.stage({UnschedulablePod("a")}, /*first=*/true);
  trigger.Close();  // an iteration, which saw no pod yet
  sink.commit();
  ASSERT_EQ(visible.size(), 1u);
  EXPECT_TRUE(trigger.Due().has_value());
  EXPECT_EQ(trigger.Close(), 1u);
}

TEST(PendingPodTriggerTest, AListedBufferOpensTheBatchOnceCommitted) {
  VirtualClock clock;
  PendingPodTrigger trigger(&clock, BatchWindow{}, -10);
  std::vector<kube::CapacityBuffer> staged, visible;
  auto sink = trigger.WrapBuffers(StagingSink(&staged, &visible));
  kube::CapacityBuffer buffer;
  buffer.uid = "b";
  buffer.generation = 1;
  sink.stage({buffer}, /*first=*/true);
  trigger.Close();  // an iteration, which saw no buffer yet
  EXPECT_FALSE(trigger.Due().has_value());
  sink.commit();
  ASSERT_EQ(visible.size(), 1u);
  EXPECT_TRUE(trigger.Due().has_value());
  // The same generation listed again is nothing new.
  trigger.Close();
  sink.stage({buffer}, /*first=*/true);
  sink.commit();
  EXPECT_FALSE(trigger.Due().has_value());
}

}  // namespace
}  // namespace propscaler::nodescale
