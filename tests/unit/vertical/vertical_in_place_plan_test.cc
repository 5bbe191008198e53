// PlanInPlace (vertical/in_place_plan.h): one pod at a time, by name; a
// resize under way is waited for; a refused one stops the walk; terminating
// and finished pods are left alone; decreases wait out their delay.
#include <gtest/gtest.h>

#include <chrono>

#include "vertical/in_place_plan.h"

namespace propscaler {
namespace {

using kube::ResizeState;
using Step = InPlacePlan::Step;
using std::chrono::seconds;

const std::map<std::string, ComputedResources> kWanted = {
    {"dns", {{{"cpu", 200}}, {}}}};

// A running pod on node-1 asking `cpu` and applied `applied`.
kube::ResizedPod Pod(const std::string& name, const std::string& cpu,
                     const std::string& applied = "") {
  kube::ResizedPod pod;
  pod.name = name;
  pod.resource_version = "rv-" + name;
  pod.phase = "Running";
  pod.node_name = "node-1";
  pod.containers = {{"dns", {{"cpu", cpu}}, {}}};
  pod.applied = {{"dns", {{"cpu", applied.empty() ? cpu : applied}}, {}}};
  return pod;
}

InPlacePlan Plan(const std::vector<kube::ResizedPod>& pods,
                 const ResizePolicy& policy = {},
                 const DecreaseHistory& history = {},
                 TimePoint now = TimePoint()) {
  return PlanInPlace(kWanted, pods, policy, history, now);
}

TEST(InPlacePlanTest, ResizesTheFirstPodByNameAndCountsTheRest) {
  const InPlacePlan plan =
      Plan({Pod("c", "100m"), Pod("a", "200m"), Pod("b", "100m")});
  EXPECT_EQ(plan.step, Step::kResize);
  EXPECT_EQ(plan.pod, "b");
  EXPECT_EQ(plan.resource_version, "rv-b");
  ASSERT_EQ(plan.changes.size(), 1u);
  EXPECT_EQ(plan.changes[0].ToString(), "dns requests.cpu 100m -> 200m");
  EXPECT_EQ(plan.pods_to_resize, 2);
}

TEST(InPlacePlanTest, NothingWhenEveryPodHasItsSize) {
  EXPECT_EQ(Plan({Pod("a", "200m"), Pod("b", "0.2")}).step, Step::kNothing);
  EXPECT_EQ(Plan({}).step, Step::kNothing);
}

TEST(InPlacePlanTest, AResizeUnderWayIsWaitedFor) {
  kube::ResizedPod accepted = Pod("a", "200m");
  accepted.resize = ResizeState::kInProgress;
  InPlacePlan plan = Plan({accepted, Pod("b", "100m")});
  EXPECT_EQ(plan.step, Step::kWait);
  EXPECT_EQ(plan.pod, "a");
  // Asked but not yet applied, and no condition yet (the kubelet has not
  // seen it): waited for too.
  plan = Plan({Pod("a", "200m", "100m"), Pod("b", "100m")});
  EXPECT_EQ(plan.step, Step::kWait);
  EXPECT_EQ(plan.pod, "a");
  // A kubelet that reports no applied resources: nothing to wait for.
  kube::ResizedPod silent = Pod("a", "200m");
  silent.applied.clear();
  EXPECT_EQ(Plan({silent, Pod("b", "100m")}).pod, "b");
}

// 1.34+: generations say whether the kubelet has seen the newest spec.
TEST(InPlacePlanTest, AnUnobservedGenerationIsWaitedFor) {
  kube::ResizedPod seen = Pod("a", "200m", "100m");
  seen.generation = 3;
  seen.observed_generation = 2;
  EXPECT_EQ(Plan({seen, Pod("b", "100m")}).step, Step::kWait);
  seen.observed_generation = 3;  // observed: its applied values are final
  EXPECT_EQ(Plan({seen, Pod("b", "100m")}).pod, "b");
}

// CPU comes back through cgroup shares: 1% (or 2m) off is applied.
TEST(InPlacePlanTest, AppliedValuesWithinOnePercentCountAsApplied) {
  EXPECT_EQ(Plan({Pod("a", "200m", "199m"), Pod("b", "100m")}).pod, "b");
  EXPECT_EQ(Plan({Pod("a", "200m", "197m"), Pod("b", "100m")}).step,
            Step::kWait);
}

TEST(InPlacePlanTest, ARefusedResizeStopsTheWalk) {
  for (ResizeState state : {ResizeState::kDeferred, ResizeState::kInfeasible,
                            ResizeState::kError, ResizeState::kRefused}) {
    kube::ResizedPod refused = Pod("b", "200m", "100m");
    refused.resize = state;
    refused.resize_message = "no room";
    kube::ResizedPod under_way = Pod("a", "200m", "100m");
    const InPlacePlan plan = Plan({under_way, refused, Pod("c", "100m")});
    EXPECT_EQ(plan.step, Step::kFallBack) << kube::ResizeStateName(state);
    EXPECT_EQ(plan.pod, "b");
    EXPECT_EQ(plan.state, state);
    EXPECT_EQ(plan.message, "no room");
  }
}

TEST(InPlacePlanTest, TerminatingAndFinishedPodsAreLeftAlone) {
  kube::ResizedPod terminating = Pod("a", "100m");
  terminating.terminating = true;
  kube::ResizedPod done = Pod("b", "100m");
  done.phase = "Succeeded";
  kube::ResizedPod refused = Pod("c", "100m");
  refused.phase = "Failed";
  refused.resize = ResizeState::kInfeasible;
  EXPECT_EQ(Plan({terminating, done, refused}).step, Step::kNothing);
  // A pending pod not yet on a node is resized (only its spec changes).
  kube::ResizedPod pending = Pod("d", "100m", "100m");
  pending.phase = "Pending";
  pending.node_name.clear();
  pending.applied.clear();
  EXPECT_EQ(Plan({terminating, pending}).pod, "d");
}

TEST(InPlacePlanTest, DecreasesWaitOutTheDelay) {
  const ResizePolicy policy{.threshold_percent = 0,
                            .scale_down_delay = seconds(60)};
  InPlacePlan plan = Plan({Pod("a", "300m"), Pod("b", "300m")}, policy);
  EXPECT_EQ(plan.step, Step::kNothing);
  EXPECT_EQ(plan.held.size(), 1u) << "the same line once";
  ASSERT_EQ(plan.history.count("dns/requests/cpu"), 1u);
  plan = Plan({Pod("a", "300m"), Pod("b", "300m")}, policy, plan.history,
              TimePoint() + seconds(61));
  EXPECT_EQ(plan.step, Step::kResize);
  EXPECT_EQ(plan.pod, "a");
  EXPECT_EQ(plan.pods_to_resize, 2);
}

TEST(InPlacePlanTest, AThresholdKeepsSmallMovesFromResizing) {
  EXPECT_EQ(Plan({Pod("a", "190m")}, {.threshold_percent = 10}).step,
            Step::kNothing);
  EXPECT_EQ(Plan({Pod("a", "150m")}, {.threshold_percent = 10}).step,
            Step::kResize);
}

}  // namespace
}  // namespace propscaler
