#include "kube/controllers/event_recorder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "apiserver/store_objects.h"
#include "common/metrics.h"
#include "memcluster/memory_cluster.h"

namespace propscaler {
namespace {

using std::chrono::seconds;

kube::EventInfo PodEvent(int i) {
  return {{"v1", "Pod", "default", "web-" + std::to_string(i), ""},
          false,
          "TriggeredScaleUp",
          "pod triggered scale-up"};
}

// Polls (real time: the sender is a real thread) until `n` Events exist.
bool WaitForEvents(const sim::ObjectStore& store, size_t n) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (sim::Events(store, "default").size() >= n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// An API that answers "create events" only once the test opens the gate.
class Gate {
 public:
  Status Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
    return Status::Ok();
  }
  void WaitForWaiters(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return waiting_ >= n; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int waiting_ = 0;
  bool open_ = false;
};

class EventRecorderTest : public ::testing::Test {
 protected:
  // From now on the API answers "create events" only once gate_ opens.
  void HoldPosts() {
    cluster_.SetFault([this](std::string_view call) {
      return call == "create events" ? gate_.Wait() : Status::Ok();
    });
  }
  size_t Posted() { return sim::Events(cluster_.store(), "default").size(); }

  VirtualClock clock_;
  memcluster::MemoryCluster cluster_{&clock_};
  Gate gate_;
};

TEST_F(EventRecorderTest, WithAQueueRecordReturnsBeforeThePostAndItStillLands) {
  HoldPosts();
  kube::EventRecorder recorder(&cluster_.client(), &clock_, "propscaler",
                               std::chrono::minutes(10), /*queue_limit=*/10);
  // The API holds the first POST: Record still returns at once, every time.
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(recorder.Record(PodEvent(i)));
  EXPECT_FALSE(recorder.Record(PodEvent(0)));  // de-duplicated as before
  gate_.WaitForWaiters(1);
  EXPECT_EQ(Posted(), 0u);
  gate_.Open();
  EXPECT_TRUE(WaitForEvents(cluster_.store(), 5));
}

TEST_F(EventRecorderTest, AFullQueueDropsAndCountsWhatItCannotHold) {
  HoldPosts();
  const double dropped_before =
      GlobalMetrics().Value("propscaler_events_dropped_total");
  kube::EventRecorder recorder(&cluster_.client(), &clock_, "propscaler",
                               std::chrono::minutes(10), /*queue_limit=*/3);
  EXPECT_TRUE(recorder.Record(PodEvent(0)));
  gate_.WaitForWaiters(1);  // the sender holds event 0: the queue is empty
  for (int i = 1; i <= 3; ++i) EXPECT_TRUE(recorder.Record(PodEvent(i)));
  EXPECT_FALSE(recorder.Record(PodEvent(4)));
  EXPECT_FALSE(recorder.Record(PodEvent(5)));
  EXPECT_EQ(GlobalMetrics().Value("propscaler_events_dropped_total"),
            dropped_before + 2);
  gate_.Open();
  EXPECT_TRUE(WaitForEvents(cluster_.store(), 4));
}

TEST_F(EventRecorderTest, WhatIsQueuedIsPostedBeforeTheRecorderGoes) {
  {
    kube::EventRecorder recorder(&cluster_.client(), &clock_, "propscaler",
                                 std::chrono::minutes(10), /*queue_limit=*/100);
    for (int i = 0; i < 50; ++i) EXPECT_TRUE(recorder.Record(PodEvent(i)));
  }
  EXPECT_EQ(Posted(), 50u);
}

// Found by the soak (bench/soak.cc: RSS up 3-4 % an hour): every message
// differs (counts, pod names), so remembering every Event for the
// de-duplication grew without end. A day of one Event a minute leaves two
// periods' worth, and repeats are still held back within a period.
TEST_F(EventRecorderTest, RemembersOnlyTheLastTwoRepeatPeriods) {
  kube::EventRecorder recorder(&cluster_.client(), &clock_, "propscaler",
                               std::chrono::minutes(10));
  for (int minute = 0; minute < 24 * 60; ++minute) {
    EXPECT_TRUE(recorder.Record(PodEvent(minute)));
    clock_.Advance(std::chrono::minutes(1));
  }
  EXPECT_LE(recorder.remembered(), 20u);
  EXPECT_EQ(Posted(), 24u * 60);
  EXPECT_TRUE(recorder.Record(PodEvent(-1)));
  clock_.Advance(std::chrono::minutes(9));
  EXPECT_FALSE(recorder.Record(PodEvent(-1)));
  clock_.Advance(std::chrono::minutes(1));
  EXPECT_TRUE(recorder.Record(PodEvent(-1)));
}

TEST_F(EventRecorderTest, WithoutAQueueRecordPostsBeforeItReturns) {
  kube::EventRecorder recorder(&cluster_.client(), &clock_, "propscaler");
  EXPECT_TRUE(recorder.Record(PodEvent(0)));
  EXPECT_EQ(Posted(), 1u);
}

}  // namespace
}  // namespace propscaler
