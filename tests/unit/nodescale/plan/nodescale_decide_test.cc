// Decide: every decision of an iteration from plain data. A scale-up
// excludes removals; otherwise Cluster Autoscaler's scale-down (its timers
// advanced, the removals due chosen) or Karpenter's disruption plan.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>

#include "nodescale/plan/decide.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using std::chrono::minutes;

class DecideTest : public ::testing::Test {
 protected:
  void SetUp() override {
    groups_ = {Group("g", 0, 10, 3, 4000, 16 * kGi)};
    snapshot_.nodes = {Node("g-1", "g", 4000, 16 * kGi),
                       Node("g-2", "g", 4000, 16 * kGi),
                       Node("g-3", "g", 4000, 16 * kGi)};
    snapshot_.pods = {BoundPod("busy", "g-1", 3000, kGi)};
    delays_.unneeded_time = minutes(10);
    delays_.delay_after_add = Duration(0);
  }

  DecideInput Input(ExpanderChain* expander) {
    DecideInput input;
    input.snapshot = &snapshot_;
    input.groups = &groups_;
    input.settings = &settings_;
    input.memory = &memory_;
    input.expander = expander;
    input.now = now_;
    return input;
  }

  // Every node an hour old, so that emptiness may take the empty ones.
  DisruptionInput Disruption() const {
    DisruptionInput disruption;
    disruption.snapshot = &snapshot_;
    disruption.life.assign(snapshot_.nodes.size(),
                           {now_ - minutes(60), now_ - minutes(60)});
    disruption.groups = groups_;
    disruption.now = now_;
    return disruption;
  }

  ClusterSnapshot snapshot_;
  std::vector<NodeGroup> groups_;
  NodeScaleSettings settings_;
  ScaleDownDelays delays_;
  LoopMemory memory_{GroupBackoff(minutes(5), minutes(30)),
                     ProvisionTracker(minutes(15)), ScaleDownTimers({}),
                     ProvReqBackoff(minutes(1), minutes(10), 1000)};
  std::mt19937_64 rng_{1};
  ExpanderChain expander_{{}, &rng_};
  const TimePoint now_ = std::chrono::system_clock::from_time_t(1'800'000'000);
};

TEST_F(DecideTest, AScaleUpLeavesNothingToRemove) {
  snapshot_.pods.push_back(Pod("waits", 3500, kGi));
  snapshot_.pods.push_back(Pod("waits-too", 3500, kGi));
  snapshot_.pods.push_back(Pod("and-this", 3500, kGi));
  memory_.timers = ScaleDownTimers(delays_);
  DecideInput input = Input(&expander_);
  input.removal = RemovalPath::kScaleDown;
  const Decisions decisions = Decide(input);
  ASSERT_EQ(decisions.scale_up.increases.size(), 1u);
  EXPECT_EQ(decisions.scale_up.increases[0].delta, 1);
  EXPECT_FALSE(decisions.scale_down);
  EXPECT_FALSE(decisions.disruption);
}

TEST_F(DecideTest, ScaleDownAdvancesTheTimersAndChoosesWhatIsDue) {
  memory_.timers = ScaleDownTimers(delays_);
  DecideInput input = Input(&expander_);
  input.removal = RemovalPath::kScaleDown;
  Decisions decisions = Decide(input);
  ASSERT_TRUE(decisions.scale_down);
  EXPECT_TRUE(decisions.scale_up.increases.empty());
  // g-2 and g-3 are empty and unneeded from now; none is due yet.
  EXPECT_TRUE(decisions.scale_down->timers.IsUnneeded("g-2"));
  EXPECT_TRUE(decisions.scale_down->timers.IsUnneeded("g-3"));
  EXPECT_FALSE(memory_.timers.IsUnneeded("g-2"));  // the input is not changed
  EXPECT_TRUE(decisions.scale_down->choice.removals.empty());
  // Ten minutes on, with the timers decided before: both go, in bulk.
  memory_.timers = decisions.scale_down->timers;
  input.now = now_ + minutes(10);
  decisions = Decide(input);
  ASSERT_TRUE(decisions.scale_down);
  EXPECT_EQ(decisions.scale_down->choice.removals.size(), 2u);
}

TEST_F(DecideTest, WithoutExpandersNoScaleUpButScaleDownStillRuns) {
  snapshot_.pods.push_back(Pod("waits", 3500, kGi));
  memory_.timers = ScaleDownTimers(delays_);
  DecideInput input = Input(nullptr);
  input.removal = RemovalPath::kScaleDown;
  const Decisions decisions = Decide(input);
  EXPECT_TRUE(decisions.scale_up.increases.empty());
  EXPECT_TRUE(decisions.scale_down);
}

TEST_F(DecideTest, DisruptionPlansWhenNoScaleUpIsNeeded) {
  const DisruptionInput disruption = Disruption();
  DecideInput input = Input(&expander_);
  input.removal = RemovalPath::kDisruption;
  input.disruption = &disruption;
  const Decisions decisions = Decide(input);
  EXPECT_FALSE(decisions.scale_down);
  ASSERT_TRUE(decisions.disruption);
  ASSERT_TRUE(decisions.disruption->command);
  EXPECT_EQ(decisions.disruption->command->method,
            DisruptionMethod::kEmptiness);
}

// The scheduling simulation is timed where NodePools schedule (Karpenter's
// scheduler), then each disruption method up to the one that acts.
TEST_F(DecideTest, TheTimerHearsTheSchedulingAndEachMethod) {
  const DisruptionInput disruption = Disruption();
  NodePoolCatalogue pools;
  pools.pools.emplace_back().name = "general";
  RecordingTimer timer;
  DecideInput input = Input(&expander_);
  input.removal = RemovalPath::kDisruption;
  input.disruption = &disruption;
  input.node_pools = &pools;
  input.timer = &timer;
  ASSERT_TRUE(Decide(input).disruption->command);
  EXPECT_EQ(timer.steps, "begin scheduled begin expiry begin emptiness ");
  // Cluster Autoscaler's scale-up over groups is not Karpenter's scheduler.
  timer.steps.clear();
  input.node_pools = nullptr;
  Decide(input);
  EXPECT_EQ(timer.steps, "begin expiry begin emptiness ");
}

// The soft taints come first: g-1's is taken off (needed again), g-2
// gets one (unneeded); g-3, due, is left to the drain, which taints it
// ToBeDeleted, as one set.
TEST_F(DecideTest, ScaleDownActionsTaintTheUnneededThenRemoveTheDue) {
  ScaleDownDecision decision{{}, ScaleDownTimers(delays_), {}};
  decision.timers.SetUnneeded({"g-2", "g-3"}, now_);
  decision.choice.removals.push_back({.node = "g-3", .group = "g"});
  std::vector<LiveNode> live(3);
  for (size_t i = 0; i < live.size(); ++i) {
    live[i].state.name = "g-" + std::to_string(i + 1);
  }
  live[0].state.taints.push_back({std::string(kDeletionCandidateTaint), "",
                                  TaintEffect::kPreferNoSchedule});
  const SoftTaintBudget budget{.max_count = 5};
  const std::vector<NodeScaleAction> actions =
      ScaleDownActions(decision, SharedNodes(std::move(live)), budget);
  ASSERT_EQ(actions.size(), 2u);
  const auto* taints = std::get_if<SetSoftTaints>(&actions[0]);
  ASSERT_NE(taints, nullptr);
  EXPECT_EQ(taints->budget.max_count, 5);
  ASSERT_EQ(taints->changes.size(), 2u);
  EXPECT_EQ(taints->changes[0].node, "g-1");
  EXPECT_FALSE(taints->changes[0].taint);
  EXPECT_EQ(taints->changes[1].node, "g-2");
  EXPECT_TRUE(taints->changes[1].taint);
  const auto* removal = std::get_if<StartRemoval>(&actions[1]);
  ASSERT_NE(removal, nullptr);
  EXPECT_FALSE(removal->all_or_nothing);
  ASSERT_EQ(removal->targets.size(), 1u);
  EXPECT_EQ(removal->targets[0].node, "g-3");
  EXPECT_EQ(removal->targets[0].group, "g");
}

TEST_F(DecideTest, NothingDueAndNoTaintToChangeIsNoAction) {
  ScaleDownDecision decision{{}, ScaleDownTimers(delays_), {}};
  std::vector<LiveNode> live(1);
  live[0].state.name = "g-1";
  EXPECT_TRUE(
      ScaleDownActions(decision, SharedNodes(std::move(live)), {}).empty());
}

}  // namespace
}  // namespace propscaler::nodescale
