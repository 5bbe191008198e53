// Node-scale timers with a fake clock: backoff, upcoming capacity and
// provisioning deadlines, scale-down unneeded time and delays.
#include <gtest/gtest.h>

#include "common/clock.h"
#include "common/duration.h"
#include "nodescale/plan/health/provision_tracker.h"
#include "nodescale/plan/scale_down/scale_down_timers.h"
#include "nodescale/plan/scale_up/group_backoff.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

TEST(GroupBackoffTest, DoublesCappedAndClearsOnSuccess) {
  VirtualClock clock;
  GroupBackoff backoff(minutes(5), minutes(30));
  const TimePoint t0 = clock.Now();
  EXPECT_EQ(backoff.Fail("a", t0), t0 + minutes(5));
  EXPECT_TRUE(backoff.BackedOff("a", t0 + minutes(4)));
  EXPECT_FALSE(backoff.BackedOff("a", t0 + minutes(5)));
  EXPECT_FALSE(backoff.BackedOff("b", t0));
  EXPECT_EQ(backoff.Fail("a", t0), t0 + minutes(10));
  EXPECT_EQ(backoff.Fail("a", t0), t0 + minutes(20));
  EXPECT_EQ(backoff.Fail("a", t0), t0 + minutes(30));
  EXPECT_EQ(backoff.Fail("a", t0), t0 + minutes(30));
  EXPECT_EQ(backoff.BackedOffGroups(t0).size(), 1u);
  backoff.Succeed("a");
  EXPECT_FALSE(backoff.BackedOff("a", t0));
  EXPECT_EQ(backoff.Fail("a", t0), t0 + minutes(5));
}

TEST(ProvisionTrackerTest, UpcomingUntilReadyThenFailsAfterDeadline) {
  VirtualClock clock;
  ProvisionTracker tracker(minutes(15));
  EXPECT_TRUE(tracker.Update({{"a", 3, 0}}, clock.Now()).empty());
  EXPECT_EQ(tracker.Upcoming("a"), 3);
  clock.Advance(minutes(10));
  EXPECT_TRUE(tracker.Update({{"a", 3, 0}}, clock.Now()).empty());
  clock.Advance(minutes(5));
  EXPECT_EQ(tracker.Update({{"a", 3, 0}}, clock.Now()),
            std::vector<std::string>{"a"});
  // Tracking restarts after a failure.
  clock.Advance(minutes(1));
  EXPECT_TRUE(tracker.Update({{"a", 3, 0}}, clock.Now()).empty());
}

TEST(ProvisionTrackerTest, ProgressRestartsTheDeadlineAndReadyEndsIt) {
  VirtualClock clock;
  ProvisionTracker tracker(minutes(15));
  tracker.Update({{"a", 2, 0}}, clock.Now());
  clock.Advance(minutes(14));
  EXPECT_TRUE(tracker.Update({{"a", 2, 1}}, clock.Now()).empty());
  EXPECT_EQ(tracker.Upcoming("a"), 1);
  clock.Advance(minutes(14));
  EXPECT_TRUE(tracker.Update({{"a", 2, 1}}, clock.Now()).empty());
  tracker.Update({{"a", 2, 2}}, clock.Now());
  EXPECT_EQ(tracker.Upcoming("a"), 0);
  EXPECT_EQ(tracker.WaitingSince("a"), TimePoint());
}

// A wait that follows a scale-up counts from the scale-up, as Cluster
// Autoscaler's request does (not from the next loop); progress restarts
// the deadline.
TEST(ProvisionTrackerTest, AWaitAfterAScaleUpCountsFromTheScaleUp) {
  VirtualClock clock;
  ProvisionTracker tracker(minutes(15));
  const TimePoint scaled = clock.Now();
  tracker.ScaledUp("a", scaled);
  clock.Advance(seconds(10));
  tracker.Update({{"a", 2, 0}}, clock.Now());
  EXPECT_EQ(tracker.WaitingSince("a"), scaled);
  EXPECT_EQ(tracker.Deadline("a"), scaled + minutes(15));
  EXPECT_EQ(tracker.Deadline("b"), std::nullopt);
  clock.Advance(minutes(5));
  tracker.Update({{"a", 2, 1}}, clock.Now());
  EXPECT_EQ(tracker.WaitingSince("a"), clock.Now());
  tracker.Update({{"a", 2, 2}}, clock.Now());
  EXPECT_EQ(tracker.Upcoming("a"), 0);
  // Due 15 minutes after the scale-up, not after the first wait's loop.
  tracker.ScaledUp("b", clock.Now());
  clock.Advance(seconds(10));
  EXPECT_TRUE(tracker.Update({{"b", 1, 0}}, clock.Now()).empty());
  clock.Advance(minutes(14) + seconds(50));
  EXPECT_EQ(tracker.Update({{"b", 1, 0}}, clock.Now()),
            std::vector<std::string>{"b"});
}

// An Unready node waits --scale-down-unready-time (20m) instead.
TEST(ScaleDownTimersTest, UnreadyNodesWaitTheUnreadyTime) {
  VirtualClock clock;
  ScaleDownDelays delays;
  ScaleDownTimers timers(delays);
  timers.SetUnneeded({"ready", "unready"}, clock.Now());
  clock.Advance(minutes(10));
  EXPECT_EQ(timers.RemovableNow({"ready", "unready"}, clock.Now(), {"unready"}),
            std::vector<std::string>{"ready"});
  clock.Advance(minutes(10));
  EXPECT_EQ(timers.RemovableNow({"ready", "unready"}, clock.Now(), {"unready"}),
            (std::vector<std::string>{"ready", "unready"}));
}

TEST(ScaleDownTimersTest, RemovableOnlyAfterUnneededTime) {
  VirtualClock clock;
  ScaleDownTimers timers({minutes(10), minutes(10), seconds(0), minutes(3)});
  timers.SetUnneeded({"n1", "n2"}, clock.Now());
  clock.Advance(minutes(5));
  timers.SetUnneeded({"n1"}, clock.Now());  // n2 became needed
  timers.SetUnneeded({"n1", "n2"}, clock.Now());
  clock.Advance(minutes(5));
  EXPECT_EQ(timers.RemovableNow({"n1", "n2"}, clock.Now()),
            std::vector<std::string>{"n1"});
  EXPECT_TRUE(timers.IsUnneeded("n2"));
  EXPECT_FALSE(timers.IsUnneeded("n3"));
}

TEST(ScaleDownTimersTest, DelaysAfterAddAndFailureBlock) {
  VirtualClock clock;
  ScaleDownTimers timers({minutes(10), minutes(10), seconds(0), minutes(3)});
  EXPECT_FALSE(timers.Blocked(clock.Now()).has_value());
  timers.ScaledUp(clock.Now());
  clock.Advance(minutes(9));
  EXPECT_TRUE(timers.Blocked(clock.Now()).has_value());
  clock.Advance(minutes(1));
  EXPECT_FALSE(timers.Blocked(clock.Now()).has_value());
  timers.Failed(clock.Now());
  clock.Advance(minutes(2));
  ASSERT_TRUE(timers.Blocked(clock.Now()).has_value());
  EXPECT_NE(timers.Blocked(clock.Now())->find("after-failure"),
            std::string::npos);
  clock.Advance(minutes(1));
  EXPECT_FALSE(timers.Blocked(clock.Now()).has_value());
}

}  // namespace
}  // namespace propscaler::nodescale
