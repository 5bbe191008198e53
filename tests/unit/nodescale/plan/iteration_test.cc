// One node-scale iteration decided in one call (plan/iteration.h): the
// steps it hands the executor and their order, when a step runs after the
// outcomes of the ones before it, and what the memory keeps of those
// outcomes.
#include "nodescale/plan/iteration.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>
#include <vector>

#include "nodescale/expander/chain.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using std::chrono::minutes;
using Kind = IterationStep::Kind;

class IterationTest : public ::testing::Test {
 protected:
  IterationTest() {
    Result<std::unique_ptr<ExpanderChain>> chain =
        MakeExpanderChain("least-waste", {}, &rng_);
    expander_ = std::move(chain).value();
    settings_.delays.unneeded_time = minutes(10);
  }

  LivePod Pending(const std::string& name, int64_t cpu_millis) {
    LivePod pod;
    pod.state = Pod(name, cpu_millis, kGi);
    pod.unschedulable = true;
    pod.created = t0_ - minutes(1);
    pod.unschedulable_since = t0_ - minutes(1);
    return pod;
  }

  LivePod Bound(const std::string& name, const std::string& node) {
    LivePod pod;
    pod.state = BoundPod(name, node, 3500, kGi);
    pod.created = t0_ - minutes(60);
    return pod;
  }

  // Two Ready nodes of group g of 4 cpu, `pods` on them or pending.
  IterationInput Input(std::vector<LivePod> pods, TimePoint now) {
    IterationInput in;
    in.now = now;
    in.nodes = SharedNodes(
        std::vector<LiveNode>{Live("a", "g", true, t0_ - minutes(60)),
                              Live("b", "g", true, t0_ - minutes(60))});
    in.pods = SharedPods(std::move(pods));
    in.pdbs = std::vector<PdbState>{};
    in.groups = {Group("g", 0, 10, 2, 4000, 16 * kGi)};
    in.group_of = [](const NodeState& node) {
      return node.labels.count(std::string(kNodeGroupLabel)) ? std::string("g")
                                                             : std::string();
    };
    in.volumes = std::make_shared<const kube::VolumeObjects>();
    in.expander = expander_.get();
    in.may_act = true;
    in.node_cache = &node_cache_;
    in.volume_cache = &volume_cache_;
    return in;
  }

  // Both nodes nearly full, and a pod of 3 cpu that fits neither.
  std::vector<LivePod> Full() {
    return {Bound("web-a", "a"), Bound("web-b", "b"), Pending("big", 3000)};
  }

  IterationDecision Decide(const IterationInput& in) {
    IterationDecision d;
    DecideIteration(in, settings_, &memory_, &d);
    return d;
  }

  static std::vector<Kind> Kinds(const IterationDecision& d) {
    std::vector<Kind> kinds;
    for (const IterationStep& step : d.steps) kinds.push_back(step.kind);
    return kinds;
  }

  // Each step run, each action with `status`.
  static IterationOutcomes AllRan(const IterationDecision& d,
                                  const Status& status) {
    IterationOutcomes outcomes;
    for (size_t s = 0; s < d.steps.size(); ++s) {
      StepOutcome out;
      out.ran = StepRuns(d, s, outcomes);
      if (out.ran) {
        for (size_t i = 0; i < d.steps[s].actions.size(); ++i) {
          out.actions.push_back({true, status});
        }
      }
      outcomes.steps.push_back(std::move(out));
    }
    return outcomes;
  }

  std::mt19937_64 rng_{1};
  std::unique_ptr<ExpanderChain> expander_;
  NodeScaleSettings settings_;
  LoopMemory memory_{GroupBackoff(minutes(5), minutes(30)),
                     ProvisionTracker(minutes(15)), ScaleDownTimers({}),
                     ProvReqBackoff(minutes(1), minutes(10), 1000)};
  SnapshotNodeCache node_cache_;
  ResolvedPodCache volume_cache_;
  const TimePoint t0_ = std::chrono::system_clock::from_time_t(1'800'000'000);
};

// A pod that fits no node: the scale-up's increase, and no scale-down
// planned beside it (Cluster Autoscaler removes nothing in a loop that
// scales up).
TEST_F(IterationTest, APendingPodGetsAnIncreaseAndNoScaleDown) {
  const IterationDecision d = Decide(Input(Full(), t0_));
  EXPECT_EQ(d.unhealthy, "");
  ASSERT_EQ(Kinds(d), std::vector<Kind>{Kind::kScaleUp});
  EXPECT_FALSE(d.scale_down.has_value());
  ASSERT_EQ(d.steps[0].actions.size(), 1u);
  const auto* increase = std::get_if<IncreaseSize>(&d.steps[0].actions[0]);
  ASSERT_NE(increase, nullptr);
  EXPECT_EQ(increase->group, "g");

  const IterationOutcomes accepted = AllRan(d, Status::Ok());
  EXPECT_TRUE(ScaledUp(d, accepted));
  AbsorbOutcomes(d, accepted, t0_, &memory_);
  EXPECT_NE(memory_.last_scale_up.find("{g 2->3"), std::string::npos)
      << memory_.last_scale_up;
  EXPECT_FALSE(memory_.backoff.BackedOff("g", t0_));
  // The next iteration follows the capacity asked for from then.
  IterationInput next = Input(Full(), t0_ + minutes(1));
  next.groups[0].target_size = 3;
  Decide(next);
  EXPECT_EQ(memory_.provision.WaitingSince("g"), t0_);
}

// The provider refuses the increase: the group backs off.
TEST_F(IterationTest, ARefusedIncreaseBacksTheGroupOff) {
  const IterationDecision d = Decide(Input(Full(), t0_));
  const IterationOutcomes refused =
      AllRan(d, Status::Unavailable("quota exceeded"));
  EXPECT_FALSE(ScaledUp(d, refused));
  AbsorbOutcomes(d, refused, t0_, &memory_);
  EXPECT_TRUE(memory_.backoff.BackedOff("g", t0_));
  EXPECT_EQ(memory_.last_scale_up, "never");
}

// Nothing pending: the scale-down step, which runs without actions too,
// and whose timers become the memory's once it ran.
TEST_F(IterationTest, TheScaleDownStepKeepsItsTimersOnceItRuns) {
  const IterationDecision d = Decide(Input({}, t0_));
  ASSERT_EQ(Kinds(d), std::vector<Kind>{Kind::kScaleDown});
  for (const NodeScaleAction& action : d.steps[0].actions) {
    EXPECT_FALSE(std::holds_alternative<StartRemoval>(action))
        << "not unneeded for long enough";
  }
  EXPECT_FALSE(memory_.timers.IsUnneeded("a")) << "not before it runs";
  AbsorbOutcomes(d, AllRan(d, Status::Ok()), t0_, &memory_);
  EXPECT_TRUE(memory_.timers.IsUnneeded("a"));
  EXPECT_EQ(memory_.last_scale_down_pass, t0_);
}

// A conflict is another writer's change: no backoff, and no scale-up.
TEST_F(IterationTest, AConflictingIncreaseIsNeitherAScaleUpNorAFailure) {
  const IterationDecision d = Decide(Input(Full(), t0_));
  const IterationOutcomes conflict =
      AllRan(d, Status(StatusCode::kConflict, "target changed"));
  EXPECT_FALSE(ScaledUp(d, conflict));
  AbsorbOutcomes(d, conflict, t0_, &memory_);
  EXPECT_FALSE(memory_.backoff.BackedOff("g", t0_));
  EXPECT_EQ(memory_.last_scale_up, "never");
}

// Too many nodes Unready: the iteration stops after saying why, and the
// unneeded nodes start over, as Cluster Autoscaler does.
TEST_F(IterationTest, AnUnhealthyClusterStopsTheIteration) {
  IterationInput in = Input({Pending("big", 3000)}, t0_);
  settings_.node_health.ok_total_unready_count = 0;
  settings_.node_health.max_total_unready_percentage = 0;
  in.nodes = SharedNodes(
      std::vector<LiveNode>{Live("a", "g", false, t0_ - minutes(60)),
                            Live("b", "g", true, t0_ - minutes(60))});
  memory_.timers.SetUnneeded({"b"}, t0_ - minutes(1));
  const IterationDecision d = Decide(in);
  EXPECT_NE(d.unhealthy, "");
  EXPECT_TRUE(d.steps.empty());
  EXPECT_EQ(d.readiness.unready, 1);
  EXPECT_FALSE(memory_.timers.IsUnneeded("b"));
  EXPECT_EQ(memory_.last_unhealthy, d.unhealthy);
}

// A group whose nodes did not come in time gives its capacity up first,
// all or nothing, over the cluster as found; the rest of the iteration
// plans on the group's lowered target.
TEST_F(IterationTest, CapacityGivenUpComesFirstAndLowersTheTarget) {
  IterationInput in = Input({}, t0_);
  in.groups = {Group("g", 0, 10, 3, 4000, 16 * kGi)};
  Decide(in);  // the group's 3 asked for are followed from t0
  in = Input({}, t0_ + minutes(16));
  in.groups = {Group("g", 0, 10, 3, 4000, 16 * kGi)};
  const IterationDecision d = Decide(in);
  ASSERT_FALSE(d.steps.empty());
  EXPECT_EQ(d.steps[0].kind, Kind::kGiveUp);
  EXPECT_TRUE(d.steps[0].all_or_nothing);
  EXPECT_EQ(d.groups[0].target_size, 2) << "the one that never registered";
  EXPECT_EQ(in.groups[0].target_size, 3);
}

// A follower decides but writes nothing of its own: no give-up.
TEST_F(IterationTest, AFollowerGivesNothingUp) {
  IterationInput in = Input({}, t0_);
  in.groups = {Group("g", 0, 10, 3, 4000, 16 * kGi)};
  in.may_act = false;
  Decide(in);
  in = Input({}, t0_ + minutes(16));
  in.groups = {Group("g", 0, 10, 3, 4000, 16 * kGi)};
  in.may_act = false;
  const IterationDecision d = Decide(in);
  for (const IterationStep& step : d.steps) {
    EXPECT_NE(step.kind, Kind::kGiveUp);
  }
  EXPECT_EQ(d.groups[0].target_size, 3);
}

// Between iterations (a batch of pending pods) only the scale-up runs.
TEST_F(IterationTest, BetweenIterationsOnlyTheScaleUp) {
  IterationInput in = Input(Full(), t0_);
  in.scale_up_only = true;
  const IterationDecision d = Decide(in);
  EXPECT_EQ(Kinds(d), std::vector<Kind>{Kind::kScaleUp});
  EXPECT_EQ(d.removal, RemovalPath::kNone);
}

// With pools declared (Karpenter's disruption), the removal is the
// disruption command's step, which runs unless the scale-up asked for nodes,
// its plan made only while no command is in flight.
TEST_F(IterationTest, DisruptionIsAStepOfItsOwnAfterTheScaleUp) {
  IterationInput in = Input({}, t0_);
  in.pools = {NodePool{}};
  in.pools[0].name = "default";
  IterationDecision d = Decide(in);
  EXPECT_EQ(d.removal, RemovalPath::kDisruption);
  ASSERT_FALSE(d.steps.empty());
  EXPECT_EQ(d.steps.back().kind, Kind::kDisruption);
  EXPECT_TRUE(d.steps.back().unless_scaled_up);
  EXPECT_TRUE(d.disruption_input.has_value());
  EXPECT_TRUE(d.disruption.has_value());
  DisruptionCommand validating;
  validating.nodes = {"a"};
  memory_.disruption.command = InFlightCommand{
      validating, InFlightCommand::Stage::kValidating, t0_ + minutes(1), 0};
  d = Decide(in);
  EXPECT_TRUE(d.disruption_input.has_value()) << "to check the command";
  EXPECT_FALSE(d.disruption.has_value()) << "one command at a time";
  in.draining = true;
  d = Decide(in);
  EXPECT_FALSE(d.disruption_input.has_value());

  IterationInput pending = Input(Full(), t0_);
  pending.pools = in.pools;
  d = Decide(pending);
  ASSERT_EQ(Kinds(d), (std::vector<Kind>{Kind::kScaleUp, Kind::kDisruption}));
  EXPECT_FALSE(d.disruption.has_value()) << "nothing planned beside a scale-up";
  EXPECT_FALSE(AllRan(d, Status::Ok()).steps[1].ran);
  EXPECT_TRUE(AllRan(d, Status::Unavailable("quota")).steps[1].ran)
      << "a command in flight goes on when the scale-up was refused";
}

}  // namespace
}  // namespace propscaler::nodescale
