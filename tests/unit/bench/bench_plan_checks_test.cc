// The checks the planning benchmarks run on their plans (bench/checks):
// each passes the planner's own plan and fails the plan a broken planner
// would make (one node too few, a pod dropped or left behind, a node
// removed whose pods have nowhere to go, savings misstated, a held pod).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "checks/plan_checks.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/simulation/template_hash.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::bench {
namespace {

using namespace nodescale;
using namespace nodescale::testing_util;
::testing::AssertionResult Says(const Failures& failures,
                                const std::string& part) {
  for (const std::string& failure : failures) {
    if (failure.find(part) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure()
         << "no failure says \"" << part << "\"; got: " << Summarize(failures);
}

::testing::AssertionResult Holds(const Failures& failures) {
  if (failures.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << Summarize(failures);
}

class ScaleUpPlanCheckTest : public ::testing::Test {
 protected:
  ScaleUpPlanCheckTest() {
    groups_.push_back(Group("small", 0, 10, 1, 2000, 8 * kGi));
    groups_.push_back(Group("large", 0, 10, 0, 8000, 32 * kGi));
    nodes_.push_back(Node("small-0", "small", 2000, 8 * kGi));
    pods_.push_back(BoundPod("busy", "small-0", 1500, kGi));
    // Seven pods of 1 cpu, on new nodes of either group.
    for (int i = 0; i < 7; ++i) {
      pods_.push_back(Pod("p" + std::to_string(i), 1000, kGi));
    }
    pods_.push_back(Pod("huge", 64000, kGi));  // fits no group
    snapshot_.nodes = nodes_;
    snapshot_.pods = PodList(pods_);
  }

  ScaleUpPlan Plan() {
    std::mt19937_64 rng(1);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    return PlanScaleUp(snapshot_, groups_, {}, {}, chain->get());
  }
  Failures Check(const ScaleUpPlan& plan) {
    return CheckScaleUpPlan(snapshot_, groups_, plan);
  }

  std::vector<NodeGroup> groups_;
  std::vector<NodeState> nodes_;
  std::vector<PodState> pods_;
  ClusterSnapshot snapshot_;
};

TEST_F(ScaleUpPlanCheckTest, ThePlannersPlanHolds) {
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.unschedulable.size(), 1u);  // huge
  EXPECT_EQ(plan.increases[0].pod_nodes.size(), plan.increases[0].pods.size());
  EXPECT_TRUE(Holds(Check(plan)));
}

TEST_F(ScaleUpPlanCheckTest, OneNodeTooFewFails) {
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  GroupIncrease& increase = plan.increases[0];
  --increase.delta;
  // A planner that packs as many pods on fewer nodes: the last node's pods
  // on the others.
  for (int64_t& node : increase.pod_nodes) node %= increase.delta;
  const Failures failures = Check(plan);
  EXPECT_TRUE(Says(failures, "does not fit new node"));
  EXPECT_TRUE(Says(failures, ": insufficient cpu"));
}

// Three times the nodes its pods need: 12 small nodes for 7 pods of 1 cpu,
// where 4 hold them.
TEST_F(ScaleUpPlanCheckTest, ThreeTimesTheNodesFails) {
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  ASSERT_EQ(plan.increases[0].group, "small");
  EXPECT_EQ(ScaleUpLowerBound(snapshot_, groups_, plan), 1)
      << "8 cpu of the large group hold the 7 pods";
  plan.increases[0].delta *= 3;
  EXPECT_TRUE(Says(Check(plan),
                   "the increase of small: 12 new nodes, more "
                   "than 1.7x the lower bound 4 and 4 (at most "
                   "11)"));
}

TEST_F(ScaleUpPlanCheckTest, APodOnANodeTheIncreaseDoesNotHaveFails) {
  ScaleUpPlan plan = Plan();
  --plan.increases[0].delta;
  EXPECT_TRUE(Says(Check(plan), "which the increase does not have"));
}

TEST_F(ScaleUpPlanCheckTest, APodDroppedFromThePlanFails) {
  ScaleUpPlan plan = Plan();
  plan.increases[0].pods.pop_back();
  plan.increases[0].pod_nodes.pop_back();
  EXPECT_TRUE(Says(Check(plan), "is not in the plan"));
}

TEST_F(ScaleUpPlanCheckTest, APodLeftBehindThatAGroupWouldTakeFails) {
  ScaleUpPlan plan = Plan();
  GroupIncrease& increase = plan.increases[0];
  const std::string left = increase.pods.back();
  increase.pods.pop_back();
  increase.pod_nodes.pop_back();
  plan.unschedulable.push_back({left, nullptr});
  const Failures failures = Check(plan);
  EXPECT_EQ(failures.size(), 1u) << Summarize(failures);
  EXPECT_TRUE(Says(failures, "pod " + left +
                                 " is left unschedulable, but a new node of "
                                 "small"));
}

TEST_F(ScaleUpPlanCheckTest, AGroupGrownPastItsMaxFails) {
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  const GroupIncrease& increase = plan.increases[0];
  for (NodeGroup& group : groups_) {
    if (group.name == increase.group) {
      group.max_size = group.target_size + increase.delta - 1;
    }
  }
  EXPECT_TRUE(Says(Check(plan), ", past its max size"));
}

constexpr double kBigPrice = 8.0;
constexpr double kSmallPrice = 1.0;

class DisruptionCheckTest : public ::testing::Test {
 protected:
  DisruptionCheckTest() {
    pools_.push_back(NodePool{"default"});
    pools_[0].budgets = {DisruptionBudget{"100%"}};
    AddGroup("big", kBigPrice, 16000);
    AddGroup("small", kSmallPrice, 2000);
  }

  void AddGroup(const std::string& name, double price, int64_t cpu) {
    NodeGroup group = Group(name, 0, 10, 0, cpu, 64 * kGi);
    group.price = price;
    groups_.push_back(group);
  }
  void AddNode(const std::string& name, const std::string& group, int64_t cpu) {
    NodeState node = Node(name, group, cpu, 64 * kGi);
    for (NodeGroup& each : groups_) {
      if (each.name != group) continue;
      ++each.target_size;
      node.annotations[std::string(nodescale::kTemplateHashAnnotation)] =
          TemplateHash(*each.declared_template);
    }
    snapshot_.nodes.push_back(node);
    life_.push_back({t0_ - std::chrono::hours(1), t0_ - std::chrono::hours(1)});
  }

  // Two big nodes with a 1-cpu pod each: consolidation takes them.
  void TwoBigNodesAtOneCpu() {
    AddNode("big-0", "big", 16000);
    AddNode("big-1", "big", 16000);
    pods_.push_back(BoundPod("a", "big-0", 1000, kGi));
    pods_.push_back(BoundPod("b", "big-1", 1000, kGi));
  }

  DisruptionPlan Plan() {
    snapshot_.pods = PodList(pods_);
    snapshot_.pdbs = pdbs_;
    input_.snapshot = &snapshot_;
    input_.life = life_;
    input_.groups = groups_;
    input_.pools = pools_;
    input_.now = t0_;
    return PlanDisruption(input_, {});
  }

  const TimePoint t0_ = std::chrono::system_clock::from_time_t(1'800'000'000);
  ClusterSnapshot snapshot_;
  std::vector<PodState> pods_;
  std::vector<NodeLife> life_;
  std::vector<NodeGroup> groups_;
  std::vector<NodePool> pools_;
  std::vector<PdbState> pdbs_;
  DisruptionInput input_;
};

TEST_F(DisruptionCheckTest, TheConsolidationPlannedHolds) {
  TwoBigNodesAtOneCpu();
  const DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command.has_value());
  EXPECT_TRUE(Holds(CheckDisruptionCommand(input_, plan, *plan.command)));
}

TEST_F(DisruptionCheckTest, MisstatedSavingsFail) {
  TwoBigNodesAtOneCpu();
  const DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command.has_value());
  DisruptionCommand command = *plan.command;
  command.savings_per_hour += 1;
  EXPECT_TRUE(
      Says(CheckDisruptionCommand(input_, plan, command), "states savings of"));
}

TEST_F(DisruptionCheckTest, RemovingEveryNodeLeavesPodsWithNowhereToGo) {
  TwoBigNodesAtOneCpu();
  const DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command.has_value());
  DisruptionCommand command = *plan.command;
  command.nodes = {"big-0", "big-1"};
  command.replacement.reset();
  command.savings_per_hour = 2 * kBigPrice;
  EXPECT_TRUE(Says(CheckDisruptionCommand(input_, plan, command),
                   "and no node left takes it"));
}

TEST_F(DisruptionCheckTest, AHeldPodOnAConsolidatedNodeFails) {
  TwoBigNodesAtOneCpu();
  const DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command.has_value());
  // The same command on a cluster where its nodes' pods may not go.
  for (PodState& pod : pods_) {
    if (std::find(plan.command->nodes.begin(), plan.command->nodes.end(),
                  pod.node_name) != plan.command->nodes.end()) {
      pod.annotations =
          Labels{{std::string(kube::kDoNotDisruptAnnotation), "true"}};
    }
  }
  snapshot_.pods = PodList(pods_);
  EXPECT_TRUE(Says(CheckDisruptionCommand(input_, plan, *plan.command),
                   "held by do-not-disrupt"));
}

TEST_F(DisruptionCheckTest, EmptinessOfANodeWithAPodFails) {
  AddNode("big-0", "big", 16000);
  AddNode("big-1", "big", 16000);
  pods_.push_back(BoundPod("a", "big-1", 1000, kGi));
  const DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command.has_value());
  ASSERT_EQ(plan.command->method, DisruptionMethod::kEmptiness);
  EXPECT_TRUE(Holds(CheckDisruptionCommand(input_, plan, *plan.command)));
  DisruptionCommand command = *plan.command;
  command.nodes = {"big-1"};
  EXPECT_TRUE(Says(CheckDisruptionCommand(input_, plan, command),
                   "which is not empty: pod default/a"));
}

TEST_F(DisruptionCheckTest, PastTheBudgetFails) {
  pools_[0].budgets = {DisruptionBudget{"1"}};
  AddNode("big-0", "big", 16000);
  AddNode("big-1", "big", 16000);
  AddNode("big-2", "big", 16000);
  const DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command.has_value());
  ASSERT_EQ(plan.command->nodes.size(), 1u);
  DisruptionCommand command = *plan.command;
  command.nodes = {"big-0", "big-1"};
  EXPECT_TRUE(Says(CheckDisruptionCommand(input_, plan, command),
                   "whose budget allows 1"));
}

TEST_F(DisruptionCheckTest, AnUnknownOrRepeatedNodeFails) {
  AddNode("big-0", "big", 16000);
  AddNode("big-1", "big", 16000);
  const DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command.has_value());
  DisruptionCommand command = *plan.command;
  command.nodes = {"big-0", "big-0", "gone"};
  const Failures failures = CheckDisruptionCommand(input_, plan, command);
  EXPECT_TRUE(Says(failures, "names node big-0 twice"));
  EXPECT_TRUE(Says(failures, "names node gone, which the snapshot"));
}

// Four nodes of 4 cpu in one group: a and b at 25%, c and d at 75%.
// Constraints between pods over a group plan's final placement: two zones'
// groups, and pods that want (or refuse) a zone with others of their app.
class ScaleUpPodConstraintsCheckTest : public ::testing::Test {
 protected:
  ScaleUpPodConstraintsCheckTest() {
    groups_ = {Group("a", 0, 10, 0, 4000, 16 * kGi),
               Group("b", 0, 10, 0, 4000, 16 * kGi)};
    groups_[0].declared_template->labels[kZone] = "zone-a";
    groups_[1].declared_template->labels[kZone] = "zone-b";
  }

  void AddPods(const std::string& app, int count, bool anti) {
    for (int i = 0; i < count; ++i) {
      PodState pod = Pod(app + "-" + std::to_string(i), 500, kGi);
      pod.labels = Labels{{"app", app}};
      const PodAffinityTerm term{
          *LabelSelector::Parse("app=" + app), {}, kZone};
      (anti ? pod.anti_affinity : pod.affinity) = {term};
      pods_.push_back(std::move(pod));
    }
  }

  // One new node of `group` for each of `pods`.
  static GroupIncrease Increase(const std::string& group,
                                const std::vector<std::string>& pods) {
    GroupIncrease increase{group, static_cast<int64_t>(pods.size()), {}, {}};
    for (size_t i = 0; i < pods.size(); ++i) {
      increase.pods.push_back("default/" + pods[i]);
      increase.pod_nodes.push_back(static_cast<int64_t>(i));
    }
    return increase;
  }

  Failures Check(const ScaleUpPlan& plan) {
    snapshot_.pods = PodList(pods_);
    return CheckScaleUpPlan(snapshot_, groups_, plan);
  }

  static constexpr const char* kZone = "topology.kubernetes.io/zone";
  std::vector<NodeGroup> groups_;
  std::vector<PodState> pods_;
  ClusterSnapshot snapshot_;
};

TEST_F(ScaleUpPodConstraintsCheckTest, AffinityHoldsInOneZone) {
  AddPods("db", 3, false);
  ScaleUpPlan plan;
  plan.increases = {Increase("a", {"db-0", "db-1", "db-2"})};
  EXPECT_TRUE(Holds(Check(plan)));
}

// Whatever order they landed in, the second zone had no db pod when its
// first arrived.
TEST_F(ScaleUpPodConstraintsCheckTest, AffinitySplitOverTwoZonesFails) {
  AddPods("db", 3, false);
  ScaleUpPlan plan;
  plan.increases = {Increase("a", {"db-0", "db-1"}), Increase("b", {"db-2"})};
  EXPECT_TRUE(Says(Check(plan), "domains with no pod it selects (at most 1)"));
}

// A db pod bound in zone-b: every new one must join it.
TEST_F(ScaleUpPodConstraintsCheckTest, AffinityAwayFromTheBoundPodFails) {
  AddPods("db", 2, false);
  snapshot_.nodes = {Node("b-0", "b", 4000, 16 * kGi)};
  snapshot_.nodes[0].labels[kZone] = "zone-b";
  PodState bound = BoundPod("db-bound", "b-0", 500, kGi);
  bound.labels = Labels{{"app", "db"}};
  pods_.push_back(bound);
  ScaleUpPlan plan;
  plan.increases = {Increase("b", {"db-0"}), Increase("a", {"db-1"})};
  EXPECT_TRUE(Says(Check(plan), "default/db-1 in zone-a"));
  plan.increases = {Increase("b", {"db-0", "db-1"})};
  EXPECT_TRUE(Holds(Check(plan)));
}

TEST_F(ScaleUpPodConstraintsCheckTest, AntiAffinityInOneZoneFails) {
  AddPods("web", 2, true);
  ScaleUpPlan plan;
  plan.increases = {Increase("a", {"web-0"}), Increase("b", {"web-1"})};
  EXPECT_TRUE(Holds(Check(plan)));
  plan.increases = {Increase("a", {"web-0", "web-1"})};
  EXPECT_TRUE(Says(Check(plan), "shares topology.kubernetes.io/zone zone-a"));
}

class ScaleDownPlanCheckTest : public ::testing::Test {
 protected:
  ScaleDownPlanCheckTest() {
    groups_.push_back(Group("g", 0, 10, 4, 4000, 16 * kGi));
    for (const char* name : {"a", "b", "c", "d"}) {
      snapshot_.nodes.push_back(Node(name, "g", 4000, 16 * kGi));
    }
    snapshot_.pods = {
        BoundPod("a-1", "a", 1000, kGi), BoundPod("b-1", "b", 1000, kGi),
        BoundPod("c-1", "c", 3000, kGi), BoundPod("d-1", "d", 3000, kGi),
        DaemonSetPod("ds-a", "a", 10, 0)};
  }

  ClusterSnapshot snapshot_;
  std::vector<NodeGroup> groups_;
  ScaleDownConfig config_;
};

TEST_F(ScaleDownPlanCheckTest, ThePlannersPlanHolds) {
  const ScaleDownPlan plan = PlanScaleDown(snapshot_, groups_, config_);
  ASSERT_FALSE(plan.removals.empty());
  EXPECT_TRUE(Holds(CheckScaleDownPlan(snapshot_, groups_, config_, plan)));
}

TEST_F(ScaleDownPlanCheckTest, RemovingEveryNodeLeavesPodsWithNowhereToGo) {
  ScaleDownPlan plan;
  for (const char* name : {"a", "b"}) {
    plan.removals.push_back(
        {name, "g", NodeRemoval::Reason::kUnderutilized, 0.25});
  }
  EXPECT_TRUE(Holds(CheckScaleDownPlan(snapshot_, groups_, config_, plan)));
  for (const char* name : {"c", "d"}) {
    plan.removals.push_back(
        {name, "g", NodeRemoval::Reason::kUnderutilized, 0.75});
  }
  const Failures failures =
      CheckScaleDownPlan(snapshot_, groups_, config_, plan);
  EXPECT_TRUE(Says(failures, "no node that stays takes it"));
  EXPECT_TRUE(Says(failures, "removes node c at 0.75"));
}

TEST_F(ScaleDownPlanCheckTest, ABusyNodeRemovedAsEmptyFails) {
  ScaleDownPlan plan;
  plan.removals.push_back({"a", "g", NodeRemoval::Reason::kEmpty, 0.25});
  EXPECT_TRUE(Says(CheckScaleDownPlan(snapshot_, groups_, config_, plan),
                   "removes node a as empty, but pod default/a-1 must move"));
}

TEST_F(ScaleDownPlanCheckTest, AGroupsOwnThresholdIsTheOneJudged) {
  groups_[0].options.scale_down_utilization_threshold = 0.2;
  ScaleDownPlan plan;
  plan.removals.push_back(
      {"a", "g", NodeRemoval::Reason::kUnderutilized, 0.25});
  EXPECT_TRUE(Says(CheckScaleDownPlan(snapshot_, groups_, config_, plan),
                   "not below the threshold 0.2"));
}

TEST_F(ScaleDownPlanCheckTest, AnUnknownOrRepeatedNodeFails) {
  ScaleDownPlan plan;
  plan.removals.push_back({"zz", "g"});
  plan.removals.push_back({"b", "g", NodeRemoval::Reason::kUnderutilized});
  plan.removals.push_back({"b", "g", NodeRemoval::Reason::kUnderutilized});
  const Failures failures =
      CheckScaleDownPlan(snapshot_, groups_, config_, plan);
  EXPECT_TRUE(Says(failures, "node zz, which the snapshot does not have"));
  EXPECT_TRUE(Says(failures, "node b twice"));
}

}  // namespace
}  // namespace propscaler::bench
