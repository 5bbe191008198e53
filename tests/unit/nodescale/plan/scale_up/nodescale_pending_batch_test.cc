// The pending-pod batch window (Karpenter's batcher: idle 1 s, max 10 s).
#include <gtest/gtest.h>

#include "nodescale/plan/scale_up/pending_batch.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const TimePoint kT0 = TimePoint{} + std::chrono::hours(1000);

TEST(PendingBatchTest, NoWindowWithoutPods) {
  PendingBatch batch({});
  EXPECT_FALSE(batch.Due().has_value());
}

TEST(PendingBatchTest, ClosesOneIdleDurationAfterTheLastNewPod) {
  PendingBatch batch({});
  batch.Add("a", kT0);
  EXPECT_EQ(batch.Due(), kT0 + seconds(1));
  batch.Add("b", kT0 + milliseconds(700));
  EXPECT_EQ(batch.Due(), kT0 + milliseconds(1700));
}

TEST(PendingBatchTest, APodAlreadyInTheWindowIsNotNews) {
  PendingBatch batch({});
  batch.Add("a", kT0);
  batch.Add("a", kT0 + milliseconds(900));
  EXPECT_EQ(batch.Due(), kT0 + seconds(1));
  EXPECT_EQ(batch.size(), 1u);
}

TEST(PendingBatchTest, ClosesAtTheMaxDurationWhilePodsKeepComing) {
  PendingBatch batch({.idle = seconds(1), .max = seconds(10)});
  for (int i = 0; i <= 30; ++i) {
    batch.Add("pod-" + std::to_string(i), kT0 + milliseconds(500 * i));
  }
  EXPECT_EQ(batch.Due(), kT0 + seconds(10));
  EXPECT_EQ(batch.size(), 31u);
}

TEST(PendingBatchTest, CloseHandsOverThePodsAndTheNextPodOpensANewWindow) {
  PendingBatch batch({});
  batch.Add("a", kT0);
  batch.Add("b", kT0 + milliseconds(100));
  EXPECT_EQ(batch.Close(), (std::set<std::string>{"a", "b"}));
  EXPECT_FALSE(batch.Due().has_value());
  batch.Add("a", kT0 + seconds(20));  // pending again: news again
  EXPECT_EQ(batch.Due(), kT0 + seconds(21));
}

}  // namespace
}  // namespace propscaler::nodescale
