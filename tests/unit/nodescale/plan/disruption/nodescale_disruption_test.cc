// The disruption planner against Karpenter's own cases
// (pkg/controllers/disruption/*_test.go, as listed in
// ../shared/reference/karpenter-disruption.md section 2), transcribed as
// facts: consolidation_test.go S7, S8, S9 (node and pod), S11, S12, S14,
// S15, S17, S18, S19, S21, S23, S24, S25, S31; emptiness_test.go S32(a);
// drift_test.go S28, S29, S30; suite_test.go S34. Karpenter's fixture:
// nodes with 32 cpu and 100 pod slots, pods with no requests, budgets 100%,
// consolidateAfter 0s. Instance types become node groups with a price:
// "big" stands for the dearest type ($20.144/h), "cheap" for the cheapest
// ($0.2074/h, 1 cpu, 5 pods).
#include <gtest/gtest.h>

#include "nodescale/domain/instance_types_json.h"
#include "nodescale/domain/kwok_catalogue.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/domain/node_pools_json.h"
#include "nodescale/plan/claim_scale_up.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/disruption/disruption_method.h"
#include "nodescale/plan/simulation/template_hash.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr double kBigPrice = 20.144;
constexpr double kCheapPrice = 0.2074;

class DisruptionTest : public ::testing::Test {
 protected:
  DisruptionTest() {
    pools_.push_back(NodePool{"default"});
    pools_[0].budgets = {DisruptionBudget{"100%"}};
    AddGroup("big", kBigPrice, 32000, 100);
    AddGroup("cheap", kCheapPrice, 1000, 5);
  }

  NodeGroup& AddGroup(const std::string& name, double price, int64_t cpu,
                      int64_t pods, const std::string& capacity = "on-demand") {
    NodeGroup group = Group(name, 0, 100, 0, cpu, 128 * kGi);
    group.declared_template->allocatable.pods = pods;
    group.price = price;
    group.capacity_type = capacity;
    groups_.push_back(group);
    return groups_.back();
  }

  NodeState& AddNode(const std::string& name, const std::string& group) {
    const NodeGroup* g = FindGroup(group);
    NodeState node = Node(
        name, group, g->declared_template->allocatable.cpu_millis, 128 * kGi);
    node.allocatable.pods = g->declared_template->allocatable.pods;
    node.annotations[std::string(nodescale::kTemplateHashAnnotation)] =
        TemplateHash(*g->declared_template);
    snapshot_.nodes.push_back(node);
    life_.push_back({t0_ - hours(1), t0_ - hours(1)});
    for (NodeGroup& each : groups_) {
      if (each.name == group) ++each.target_size;
    }
    return snapshot_.nodes.back();
  }

  // Karpenter's usual candidate: the cheapest type, with the test's 32 cpu
  // and 100 pod slots, so that nothing is cheaper.
  NodeState& AddCheapNode(const std::string& name) {
    NodeState& node = AddNode(name, "cheap");
    node.allocatable.cpu_millis = 32000;
    node.allocatable.pods = 100;
    return node;
  }

  PodState& AddPod(const std::string& name, const std::string& node,
                   int64_t cpu = 0) {
    pods_.push_back(BoundPod(name, node, cpu, 0));
    return pods_.back();
  }

  NodeGroup* FindGroup(const std::string& name) {
    for (NodeGroup& g : groups_) {
      if (g.name == name) return &g;
    }
    return nullptr;
  }

  DisruptionInput Input() {
    snapshot_.pods = PodList(pods_);
    snapshot_.pdbs = pdbs_;
    DisruptionInput input;
    input.snapshot = &snapshot_;
    input.life = life_;
    input.groups = groups_;
    input.pools = pools_;
    input.now = now_;
    return input;
  }

  DisruptionPlan Plan(DisruptionOptions options = {}) {
    input_ = Input();
    return PlanDisruption(input_, options);
  }

  std::string Reasons(const DisruptionPlan& plan) {
    std::string out;
    for (const BlockedCandidate& b : plan.blocked) {
      out += b.node + ": " + b.reason + "\n";
    }
    return out;
  }

  const TimePoint t0_ = std::chrono::system_clock::from_time_t(1'800'000'000);
  TimePoint now_ = t0_;
  ClusterSnapshot snapshot_;
  std::vector<PodState> pods_;
  std::vector<NodeLife> life_;
  std::vector<NodeGroup> groups_;
  std::vector<NodePool> pools_;
  std::vector<PdbState> pdbs_;
  DisruptionInput input_;
};

using Method = DisruptionMethod;

// S7 (consolidation_test.go:2421): two cheapest-type nodes, 2 pods on n0,
// 1 on n1: n1 goes, no replacement.
TEST_F(DisruptionTest, DeletesTheNodeWhosePodsFitElsewhere) {
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0");
  AddPod("b", "n0");
  AddPod("c", "n1");
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  // Multi-node tries both (a same-group replacement is dropped); single-node
  // then takes the node with fewer pods.
  EXPECT_EQ(plan.command->method, Method::kSingleNode);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n1"});
}

// S21 (:4087): the same, through single-node after multi-node finds
// nothing; never "delete 2 + launch 1 of the same type".
// The timer hears each method's evaluation begin and end, in Karpenter's
// order, up to the method whose command acts (here single-node, as above).
TEST_F(DisruptionTest, TheTimerHearsEachMethodEvaluated) {
  testing_util::RecordingTimer timer;
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0");
  AddPod("b", "n0");
  AddPod("c", "n1");
  input_ = Input();
  const DisruptionPlan plan = PlanDisruption(input_, {}, &timer);
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(timer.steps,
            "begin expiry begin emptiness begin drift begin multi-node "
            "begin single-node ");
  EXPECT_EQ(plan.command->nodes, PlanDisruption(input_, {}).command->nodes)
      << "timed or not, the same plan";
}

TEST_F(DisruptionTest, NeverReplacesTwoNodesByOneOfTheirOwnGroup) {
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0");
  AddPod("b", "n1");
  AddPod("c", "n1");
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kSingleNode);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n0"});
  EXPECT_FALSE(plan.command->replacement);
}

// S8 (:2587): the pod on n1 is covered by a PDB allowing no disruption.
TEST_F(DisruptionTest, APdbThatAllowsNothingKeepsItsNode) {
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0");
  AddPod("b", "n0");
  PodState& c = AddPod("c", "n1");
  c.labels = Labels{{"app", "guarded"}};
  pdbs_.push_back({"default", "guard", *LabelSelector::Parse("app=guarded"),
                   false, 0, true});
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n0"});
  EXPECT_NE(Reasons(plan).find("n1: pod default/c: PodDisruptionBudget "
                               "default/guard allows no disruption now"),
            std::string::npos)
      << Reasons(plan);
}

// Two PDBs covering one pod block it: eviction supports only one.
TEST_F(DisruptionTest, APodCoveredByTwoPdbsKeepsItsNode) {
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0");
  AddPod("b", "n0");
  PodState& c = AddPod("c", "n1");
  c.labels = Labels{{"app", "x"}};
  pdbs_.push_back({"default", "one", *LabelSelector::Parse("app=x"), false, 5});
  pdbs_.push_back({"default", "two", LabelSelector(), false, 5});
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n0"});
}

// S9 (:2644, :2686): do-not-disrupt on the node, or on its pod.
TEST_F(DisruptionTest, DoNotDisruptOnTheNodeOrItsPod) {
  for (const bool on_node : {true, false}) {
    SCOPED_TRACE(on_node ? "node" : "pod");
    snapshot_ = {};
    pods_.clear();
    life_.clear();
    for (NodeGroup& g : groups_) g.target_size = 0;
    AddCheapNode("n0");
    NodeState& n1 = AddCheapNode("n1");
    AddPod("a", "n0");
    AddPod("b", "n0");
    PodState& c = AddPod("c", "n1");
    if (on_node) {
      n1.annotations[std::string(kube::kDoNotDisruptAnnotation)] = "true";
    } else {
      c.annotations =
          Labels{{std::string(kube::kDoNotDisruptAnnotation), "true"}};
    }
    DisruptionPlan plan = Plan();
    ASSERT_TRUE(plan.command) << Reasons(plan);
    EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n0"});
  }
}

// S11 (:2824, :2867): do-not-disrupt "2m" blocks while the pod is younger.
TEST_F(DisruptionTest, ADoNotDisruptDurationBlocksUntilItPasses) {
  AddCheapNode("n0");
  AddCheapNode("n1");
  for (const char* name : {"a", "b"}) {
    PodState& pod = AddPod(name, "n0");
    pod.annotations =
        Labels{{std::string(kube::kDoNotDisruptAnnotation), "2m"}};
    pod.start_time = t0_;
  }
  PodState& c = AddPod("c", "n1");
  c.annotations = Labels{{std::string(kube::kDoNotDisruptAnnotation), "2m"}};
  c.start_time = t0_;
  EXPECT_FALSE(Plan().command);
  now_ = t0_ + minutes(3);
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n1"});
}

// S12 (:2539): a node of no group takes the pods of a managed one.
TEST_F(DisruptionTest, AnUnmanagedNodeTakesThePods) {
  AddNode("managed", "big");
  for (const char* name : {"a", "b", "c"}) AddPod(name, "managed");
  NodeState unmanaged = Node("unmanaged", "", 32000, 128 * kGi);
  unmanaged.allocatable.pods = 100;
  snapshot_.nodes.push_back(unmanaged);
  life_.push_back({t0_ - hours(1), t0_ - hours(1)});
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kSingleNode);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"managed"});
  EXPECT_FALSE(plan.command->replacement);
  EXPECT_DOUBLE_EQ(plan.command->savings_per_hour, kBigPrice);
}

// S14 (:3050): consolidateAfter 1m; both nodes' pods changed at t0: nothing
// at t0 (n0 may not take pods inside its window), n1 goes at t0+2m.
TEST_F(DisruptionTest, ConsolidateAfterGatesCandidatesAndDestinations) {
  pools_[0].consolidate_after = minutes(1);
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0");
  AddPod("b", "n0");
  AddPod("c", "n1");
  for (NodeLife& life : life_) life.last_pod_event = t0_;
  EXPECT_FALSE(Plan().command);
  now_ = t0_ + minutes(2);
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n1"});
}

// S15 (:3121): a destination in a pool with consolidateAfter Never is
// always a valid destination.
TEST_F(DisruptionTest, ANeverPoolNodeIsAlwaysADestination) {
  pools_.push_back(NodePool{"keep"});
  pools_[1].consolidate_after = std::nullopt;
  AddGroup("kept", kBigPrice, 32000, 100).pool = "keep";
  AddNode("source", "big");
  AddPod("a", "source");
  AddNode("dest", "kept");
  life_.back().last_pod_event = t0_;
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"source"});
}

// S17 (:3390): a pod that can never schedule does not stop a delete.
TEST_F(DisruptionTest, APermanentlyPendingPodDoesNotBlock) {
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0");
  AddPod("b", "n0");
  AddPod("c", "n1");
  PodState pending = Pod("stuck", 0, 0);
  pending.node_selector = Labels{{"never", "true"}};
  pods_.push_back(pending);
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n1"});
}

// S18 (:3442): pods select their node's label: no move is possible.
TEST_F(DisruptionTest, NoActionWhenARunningPodWouldBecomePending) {
  AddNode("n0", "big").labels["foo"] = "1";
  AddNode("n1", "big").labels["foo"] = "2";
  AddPod("a", "n0").node_selector = Labels{{"foo", "1"}};
  AddPod("b", "n1").node_selector = Labels{{"foo", "2"}};
  EXPECT_FALSE(Plan().command);
}

// S1/S19 (:1006, :3982): dearest nodes with one pod each become one cheap
// node: single (1 -> 1) and multi-node (3 -> 1).
TEST_F(DisruptionTest, ReplacesDearNodesByOneCheaperNode) {
  AddNode("n0", "big");
  AddPod("a", "n0");
  DisruptionPlan single = Plan();
  ASSERT_TRUE(single.command) << Reasons(single);
  EXPECT_EQ(single.command->method, Method::kSingleNode);
  ASSERT_TRUE(single.command->replacement);
  EXPECT_EQ(single.command->replacement->group, "cheap");
  EXPECT_NEAR(single.command->savings_per_hour, kBigPrice - kCheapPrice, 1e-9);

  AddNode("n1", "big");
  AddNode("n2", "big");
  AddPod("b", "n1");
  AddPod("c", "n2");
  DisruptionPlan multi = Plan();
  ASSERT_TRUE(multi.command) << Reasons(multi);
  EXPECT_EQ(multi.command->method, Method::kMultiNode);
  EXPECT_EQ(multi.command->nodes.size(), 3u);
  ASSERT_TRUE(multi.command->replacement);
  EXPECT_EQ(multi.command->replacement->group, "cheap");
  EXPECT_EQ(multi.command->replacement->count, 1);
  EXPECT_TRUE(multi.command->needs_validation);
}

// Equal price never consolidates (reference 1.5; aws#5903).
TEST_F(DisruptionTest, AnEqualPriceIsNotCheaper) {
  AddGroup("twin", kBigPrice, 32000, 100);
  FindGroup("cheap")->max_size = 0;
  AddNode("n0", "big");
  AddPod("a", "n0");
  DisruptionPlan plan = Plan();
  EXPECT_FALSE(plan.command);
  EXPECT_NE(Reasons(plan).find("can't replace with a cheaper node"),
            std::string::npos)
      << Reasons(plan);
}

// S2 (:1136): spot-to-spot is off by default.
TEST_F(DisruptionTest, SpotIsNotReplacedBySpotUnlessEnabled) {
  groups_.clear();
  AddGroup("big-spot", kBigPrice, 32000, 100, "spot");
  AddGroup("cheap-spot", kCheapPrice, 1000, 5, "spot");
  AddNode("n0", "big-spot");
  AddPod("a", "n0");
  DisruptionPlan plan = Plan();
  EXPECT_FALSE(plan.command);
  EXPECT_NE(Reasons(plan).find("spot-to-spot consolidation is disabled"),
            std::string::npos);
  // S3 (:1061): with the gate on, one cheaper spot type is not enough.
  DisruptionOptions on;
  on.spot_to_spot = true;
  plan = Plan(on);
  EXPECT_FALSE(plan.command);
  EXPECT_NE(Reasons(plan).find("spot-to-spot consolidation requires 15 "
                               "cheaper instance type options than the "
                               "current candidate to consolidate, got 1"),
            std::string::npos)
      << Reasons(plan);
}

// S1 (:1006, the spot entry, gate on): Karpenter's catalogue has many
// cheaper spot types, so the dearest spot node is replaced by the cheapest.
// S4 (:1177): a node on the second-cheapest of 20 spot types has one
// cheaper, and stays.
TEST_F(DisruptionTest, SpotToSpotNeedsFifteenCheaperTypes) {
  groups_.clear();
  for (int i = 0; i < 20; ++i) {
    AddGroup("spot-" + std::to_string(i), 0.5 + i, 32000, 100, "spot");
  }
  AddNode("n0", "spot-19");
  AddPod("a", "n0");
  DisruptionOptions on;
  on.spot_to_spot = true;
  DisruptionPlan plan = Plan(on);
  ASSERT_TRUE(plan.command) << Reasons(plan);
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "spot-0");

  snapshot_.nodes.clear();
  life_.clear();
  pods_.clear();
  for (NodeGroup& group : groups_) group.target_size = 0;
  AddNode("n1", "spot-1");
  AddPod("b", "n1");
  plan = Plan(on);
  EXPECT_FALSE(plan.command);
  EXPECT_NE(Reasons(plan).find("got 1"), std::string::npos) << Reasons(plan);
}

// S19/S20 (:3982, :4030): a multi-node spot command needs no spread of
// cheaper types: three dear spot nodes become one cheap spot node.
TEST_F(DisruptionTest, MultiNodeSpotToSpotNeedsNoFifteenTypes) {
  groups_.clear();
  AddGroup("big-spot", kBigPrice, 32000, 100, "spot");
  AddGroup("cheap-spot", kCheapPrice, 32000, 100, "spot");
  for (const char* node : {"n0", "n1", "n2"}) {
    AddNode(node, "big-spot");
    AddPod(std::string("pod-") + node, node);
  }
  DisruptionOptions on;
  on.spot_to_spot = true;
  DisruptionPlan plan = Plan(on);
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes.size(), 3u);
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "cheap-spot");
}

// Consolidation over a NodePool's catalogue (issue 64): each candidate
// (type x offering) is a group, so a 16-cpu node holding one 1-cpu pod is
// replaced by the cheapest candidate of its NodePool that takes the pod:
// a 2-cpu type (1 cpu is too small after kube-reserved).
TEST_F(DisruptionTest, ACatalogueNodeIsReplacedByTheCheapestCandidate) {
  Result<std::vector<NodePoolSpec>> specs = DecodeNodePools(R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  disruption: {consolidateAfter: 0s, budgets: [{nodes: "100%"}]}
  template:
    spec:
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: kubernetes.io/os, operator: In, values: [linux]}
)");
  ASSERT_TRUE(specs.ok()) << specs.status().message();
  const NodePoolCatalogue catalogue{*specs, KwokDefaultInstanceTypes()};
  groups_ = CatalogueGroups(catalogue);
  pools_ = {catalogue.pools[0].disruption};
  auto group_of = [&](const std::string& type) -> const NodeGroup* {
    for (const NodeGroup& group : groups_) {
      const Labels& labels = group.declared_template->labels;
      if (labels.at(std::string(kInstanceTypeLabel)) == type &&
          labels.at("topology.kubernetes.io/zone") == "test-zone-a") {
        return &group;
      }
    }
    return nullptr;
  };
  const NodeGroup* big = group_of("c-16x-amd64-linux");
  const NodeGroup* small = group_of("c-2x-amd64-linux");
  ASSERT_NE(big, nullptr);
  ASSERT_NE(small, nullptr);
  AddNode("n0", big->name);
  AddPod("a", "n0", 1000);
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  ASSERT_TRUE(plan.command->replacement);
  const NodeGroup* chosen = FindGroup(plan.command->replacement->group);
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(chosen->pool, "general");
  EXPECT_EQ(
      chosen->declared_template->labels.at("karpenter.kwok.sh/instance-cpu"),
      "2");
  EXPECT_DOUBLE_EQ(plan.command->replacement->price_per_hour, *small->price);
  EXPECT_DOUBLE_EQ(plan.command->savings_per_hour, *big->price - *small->price);
}

// S23 (:366-430): 10 empty dear nodes; budgets 30% / 100% / 0%.
TEST_F(DisruptionTest, EmptinessTakesWhatTheBudgetAllows) {
  for (int i = 0; i < 10; ++i) AddNode("n" + std::to_string(i), "big");
  for (const auto& [budget, taken] :
       std::vector<std::pair<std::string, size_t>>{
           {"30%", 3}, {"100%", 10}, {"0%", 0}}) {
    SCOPED_TRACE(budget);
    pools_[0].budgets = {DisruptionBudget{budget}};
    DisruptionPlan plan = Plan();
    if (taken == 0) {
      EXPECT_FALSE(plan.command);
      continue;
    }
    ASSERT_TRUE(plan.command);
    EXPECT_EQ(plan.command->method, Method::kEmptiness);
    EXPECT_EQ(plan.command->nodes.size(), taken);
    EXPECT_FALSE(plan.command->replacement);
  }
}

// S24 (:433): 10 nodes with a 100m pod each, 30%: multi-node deletes 3.
TEST_F(DisruptionTest, MultiNodeStaysWithinTheBudget) {
  pools_[0].budgets = {DisruptionBudget{"30%"}};
  for (int i = 0; i < 10; ++i) {
    AddNode("n" + std::to_string(i), "big");
    AddPod("p" + std::to_string(i), "n" + std::to_string(i), 100);
  }
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kMultiNode);
  EXPECT_EQ(plan.command->nodes.size(), 3u);
  EXPECT_FALSE(plan.command->replacement);
}

// S25 (:522): 10 pools x 3 empty nodes, 50% each: ceil(1.5) = 2 per pool,
// one command of 20.
TEST_F(DisruptionTest, BudgetsArePerPool) {
  pools_.clear();
  for (int p = 0; p < 10; ++p) {
    const std::string name = "pool" + std::to_string(p);
    pools_.push_back(NodePool{name});
    pools_.back().budgets = {DisruptionBudget{"50%"}};
    AddGroup("g" + std::to_string(p), kBigPrice, 32000, 100).pool = name;
    for (int n = 0; n < 3; ++n) {
      AddNode("g" + std::to_string(p) + "-" + std::to_string(n),
              "g" + std::to_string(p));
    }
  }
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->nodes.size(), 20u);
  for (const PoolAllowanceReport& report : plan.allowances) {
    EXPECT_EQ(report.allowed, 2) << report.pool;
  }
}

// S34 (suite_test.go:677-855): NotReady and deleting nodes use the budget;
// never below 0.
TEST_F(DisruptionTest, NodesGoingAwayCountAsDisrupting) {
  pools_[0].budgets = {DisruptionBudget{"100%"}};
  for (int i = 0; i < 10; ++i) AddNode("n" + std::to_string(i), "big");
  snapshot_.nodes[0].ready = false;
  snapshot_.nodes[1].ready = false;
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->nodes.size(), 8u);
  pools_[0].budgets = {DisruptionBudget{"10%"}};
  for (NodeLife& life : life_) life.deleting = true;
  plan = Plan();
  EXPECT_FALSE(plan.command);
  ASSERT_FALSE(plan.allowances.empty());
  EXPECT_EQ(plan.allowances[0].allowed, 0);
}

// S32(a) (emptiness_test.go:499): a node with only a DaemonSet pod is empty;
// so is one whose pods' priority makes their eviction cost <= 0 (v1.14).
TEST_F(DisruptionTest, DaemonSetAndVeryLowPriorityPodsLeaveANodeEmpty) {
  pools_[0].consolidation_policy = ConsolidationPolicy::kWhenEmpty;
  AddNode("ds-only", "big");
  pods_.push_back(DaemonSetPod("ds", "ds-only", 100, 0));
  AddNode("low", "big");
  AddPod("low-pod", "low").priority = -(1 << 25) * 2;
  AddNode("busy", "big");
  AddPod("real", "busy");
  DisruptionOptions preview;
  preview.preview = true;
  DisruptionPlan plan = Plan(preview);
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kEmptiness);
  EXPECT_EQ(plan.command->nodes, (std::vector<std::string>{"ds-only", "low"}));
  EXPECT_NE(Reasons(plan).find("consolidation policy WhenEmpty"),
            std::string::npos);
}

// Where Karpenter has none, groups have a min size (Cluster Autoscaler's):
// deletes never go below it.
TEST_F(DisruptionTest, DeletesStopAtTheGroupsMinSize) {
  for (int i = 0; i < 4; ++i) AddNode("n" + std::to_string(i), "big");
  FindGroup("big")->min_size = 3;
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->nodes.size(), 1u);
  EXPECT_NE(Reasons(plan).find("node group big at min size 3"),
            std::string::npos)
      << Reasons(plan);
}

// Karpenter v1.14 sorts by price over disruption cost: of two nodes of one
// price, the one with fewer pods goes first.
TEST_F(DisruptionTest, CandidatesWithFewerPodsComeFirst) {
  AddNode("many", "big");
  AddNode("few", "big");
  AddNode("room", "big");
  for (int i = 0; i < 5; ++i) AddPod("m" + std::to_string(i), "many", 1000);
  AddPod("f", "few", 1000);
  AddPod("r", "room", 31000);
  DisruptionOptions preview;
  preview.preview = true;
  DisruptionPlan plan = Plan(preview);
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"few"});
}

// S28 (drift_test.go:830, :1052): an empty drifted node first, then the
// oldest; S29 (:968): drift may need several new nodes.
TEST_F(DisruptionTest, DriftRollsEmptyThenOldestNodes) {
  AddNode("old", "big");
  AddPod("a", "old", 30000);
  AddNode("empty", "big");
  AddNode("young", "big");
  AddPod("b", "young", 30000);
  life_[0].created = t0_ - hours(5);
  life_[2].created = t0_ - hours(1);
  FindGroup("big")->declared_template->labels["version"] = "2";
  FindGroup("cheap")->max_size = 0;
  pools_[0].consolidate_after = std::nullopt;  // drift only
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kDrift);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"empty"});
  EXPECT_FALSE(plan.command->replacement);

  snapshot_.nodes.erase(snapshot_.nodes.begin() + 1);
  life_.erase(life_.begin() + 1);
  plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"old"});
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "big");
  EXPECT_FALSE(plan.command->needs_validation);
}

TEST_F(DisruptionTest, DriftMayNeedSeveralNewNodes) {
  AddGroup("three-cpu", 0.30, 3000, 100);
  FindGroup("cheap")->max_size = 0;
  FindGroup("big")->max_size = 1;
  AddNode("n", "big");
  for (const char* name : {"a", "b", "c"}) AddPod(name, "n", 2000);
  FindGroup("big")->declared_template->labels["version"] = "2";
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kDrift);
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "three-cpu");
  EXPECT_EQ(plan.command->replacement->count, 3);
}

// --enable-csi-node-aware-scheduling: a replacement node takes the attach
// limits of its group's live node, so three pods with a volume each need
// three replacements under a limit of 1; by default (CA's), one.
TEST_F(DisruptionTest, ReplacementsTakeTheLiveNodesAttachLimits) {
  FindGroup("cheap")->max_size = 0;
  NodeState& n = AddNode("n", "big");
  n.volume_limits = {{"ebs.csi.aws.com", 1}};
  for (const char* name : {"a", "b", "c"}) {
    AddPod(name, "n", 1000).attached_volumes =
        std::vector<kube::AttachedVolume>{
            {"ebs.csi.aws.com", std::string("vol-") + name}};
  }
  FindGroup("big")->declared_template->labels["version"] = "2";
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->count, 1);

  input_ = Input();
  input_.csi_node_aware_scheduling = true;
  plan = PlanDisruption(input_, {});
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kDrift);
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "big");
  EXPECT_EQ(plan.command->replacement->count, 3);
}

// S30 (drift_test.go:345): a drifted node whose pod fits nowhere is skipped.
TEST_F(DisruptionTest, DriftSkipsANodeWhosePodsFitNowhere) {
  AddNode("huge-pod", "big");
  AddPod("huge", "huge-pod", 32000).requests.cpu_millis = 150000;
  AddNode("small-pod", "big");
  AddPod("small", "small-pod", 1000);
  FindGroup("big")->declared_template->labels["version"] = "2";
  pools_[0].consolidate_after = std::nullopt;
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"small-pod"});
  EXPECT_NE(Reasons(plan).find("huge-pod: not all pods would schedule"),
            std::string::npos)
      << Reasons(plan);
}

// Expiry is forceful: budgets 0 and do-not-disrupt do not hold it back.
TEST_F(DisruptionTest, ExpiryIgnoresBudgetsAndOptOuts) {
  pools_[0].budgets = {DisruptionBudget{"0"}};
  pools_[0].expire_after = hours(720);
  AddNode("n", "big").annotations[std::string(kube::kDoNotDisruptAnnotation)] =
      "true";
  AddPod("a", "n", 20000);
  life_[0].created = t0_ - hours(721);
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->method, Method::kExpiry);
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "big");
}

// S31 (:4525): zone spread maxSkew 1 over three zones; the zone-2 node is
// dear: its replacement must land in zone 2.
TEST_F(DisruptionTest, AReplacementKeepsTheSpread) {
  groups_.clear();
  for (int z = 1; z <= 3; ++z) {
    const std::string zone = "zone-" + std::to_string(z);
    NodeGroup& g = AddGroup("cheap-" + zone, kCheapPrice, 1000, 5);
    g.declared_template->labels[std::string(kZoneLabel)] = zone;
  }
  NodeGroup& dear = AddGroup("dear-zone-2", kBigPrice, 32000, 100);
  dear.declared_template->labels[std::string(kZoneLabel)] = "zone-2";
  AddNode("z1", "cheap-zone-1").labels[std::string(kZoneLabel)] = "zone-1";
  AddNode("z2", "dear-zone-2").labels[std::string(kZoneLabel)] = "zone-2";
  AddNode("z3", "cheap-zone-3").labels[std::string(kZoneLabel)] = "zone-3";
  const std::vector<kube::SpreadConstraint> spread = {
      {1, std::string(kZoneLabel), *LabelSelector::Parse("app=s"), 0}};
  for (const char* node : {"z1", "z2", "z3"}) {
    PodState& pod = AddPod(std::string("p-") + node, node, 1000);
    pod.labels = Labels{{"app", "s"}};
    pod.spread = spread;
  }
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"z2"});
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "cheap-zone-2");
}

// Issue 43: a pod whose volume is in zone b moves only within zone b. The
// dear zone-b node is not consolidated onto the zone-a node (itself kept
// out of the candidates) nor replaced in zone a; once a cheap zone-b group
// exists, that is its replacement.
TEST_F(DisruptionTest, AZonalVolumeKeepsItsPodInItsZone) {
  groups_.clear();
  NodeGroup& cheap_a = AddGroup("cheap-a", kCheapPrice, 32000, 100);
  cheap_a.declared_template->labels[std::string(kZoneLabel)] = "a";
  NodeGroup& dear_b = AddGroup("dear-b", kBigPrice, 32000, 100);
  dear_b.declared_template->labels[std::string(kZoneLabel)] = "b";
  NodeState& a1 = AddNode("a1", "cheap-a");
  a1.labels[std::string(kZoneLabel)] = "a";
  a1.annotations[std::string(kube::kDoNotDisruptAnnotation)] = "true";
  AddNode("b1", "dear-b").labels[std::string(kZoneLabel)] = "b";
  AddPod("on-a", "a1");
  AddPod("stateful", "b1").volume_needs = std::vector<kube::VolumeNeed>{
      {"node(s) had volume node affinity conflict (claim \"data\")",
       {{{{std::string(kZoneLabel),
           NodeSelectorRequirement::Op::kIn,
           {"b"}}}}}}};
  DisruptionPlan refused = Plan();
  EXPECT_FALSE(refused.command) << Reasons(refused);

  NodeGroup& cheap_b = AddGroup("cheap-b", kCheapPrice, 32000, 100);
  cheap_b.declared_template->labels[std::string(kZoneLabel)] = "b";
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"b1"});
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "cheap-b");
}

// GKE's active migration: a pool that opts in moves a node of a lower
// priority group back to the preferred one once it can take the pods.
TEST_F(DisruptionTest, MovesBackToThePreferredGroup) {
  pools_[0].migrate_to_preferred = true;
  pools_[0].consolidate_after = std::nullopt;
  AddGroup("spot", 1.0, 32000, 100, "spot");
  AddGroup("on-demand", 3.0, 32000, 100);
  FindGroup("cheap")->max_size = 0;
  FindGroup("big")->max_size = 0;
  AddNode("fallback", "on-demand");
  AddPod("a", "fallback", 20000);
  DisruptionInput input = Input();
  input.group_priority = {{"spot", 20}, {"on-demand", 10}};
  DisruptionPlan plan = PlanDisruption(input, {});
  ASSERT_TRUE(plan.command) << Reasons(plan);
  EXPECT_EQ(plan.command->method, Method::kPriority);
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "spot");
  input.backed_off_groups = {"spot"};
  EXPECT_FALSE(PlanDisruption(input, {}).command);
}

// S22/S33 (real validator): a pod that binds during the 15 s wait makes
// the command fail validation.
TEST_F(DisruptionTest, ValidationRejectsACommandThePodsNoLongerAllow) {
  AddCheapNode("n0");
  AddCheapNode("n1");
  AddPod("a", "n0", 31000);
  AddPod("c", "n1", 500);
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command);
  ASSERT_EQ(plan.command->nodes.size(), 1u);
  ASSERT_TRUE(ValidateCommand(Input(), *plan.command, {}).ok());
  const bool n0_goes = plan.command->nodes[0] == "n0";
  const size_t destination = n0_goes ? 1 : 0;
  AddPod("late", n0_goes ? "n1" : "n0", 20000);
  life_[destination].last_pod_event = now_ - minutes(1);
  Result<DisruptionCommand> again = ValidateCommand(Input(), *plan.command, {});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message().rfind("scheduling: ", 0), 0u)
      << again.status().message();
}

}  // namespace
}  // namespace propscaler::nodescale

namespace propscaler::nodescale {
namespace {

// Our own case (Karpenter has no min size): three empty expired nodes of a
// group at min size 3 are not all deleted at once; the oldest is replaced
// by a node of its own group.
TEST_F(DisruptionTest, ExpiryKeepsTheGroupsMinSize) {
  pools_[0].expire_after = hours(1);
  FindGroup("big")->min_size = 3;
  for (int i = 0; i < 3; ++i) {
    AddNode("n" + std::to_string(i), "big");
    life_.back().created = t0_ - hours(2) - minutes(i);
  }
  DisruptionPlan plan = Plan();
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->method, Method::kExpiry);
  EXPECT_EQ(plan.command->nodes, std::vector<std::string>{"n2"});
  ASSERT_TRUE(plan.command->replacement);
  EXPECT_EQ(plan.command->replacement->group, "big");
  EXPECT_EQ(plan.command->replacement->count, 1);

  // Above the floor they go together, with no replacement (no pods).
  FindGroup("big")->min_size = 0;
  plan = Plan();
  ASSERT_TRUE(plan.command);
  EXPECT_EQ(plan.command->nodes.size(), 3u);
  EXPECT_FALSE(plan.command->replacement);
}

// Each method is a type of its own, asked alone: on a cluster with one
// empty node and one drifted busy node, emptiness takes the empty one,
// drift the drifted one, and expiry (no pool expires) nothing.
TEST_F(DisruptionTest, EachMethodComputesItsOwnCommandAlone) {
  AddNode("busy", "big");
  AddPod("a", "busy", 30000);
  AddNode("empty", "big");
  snapshot_.nodes[0]
      .annotations[std::string(nodescale::kTemplateHashAnnotation)] =
      "an-older-template";
  FindGroup("cheap")->max_size = 0;
  input_ = Input();
  DisruptionPlan plan;
  DisruptionContext context(input_, DisruptionOptions{}, &plan);
  EXPECT_FALSE(disruption::Expiry().ComputeCommand(context));
  std::optional<DisruptionCommand> empty =
      disruption::Emptiness().ComputeCommand(context);
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->method, Method::kEmptiness);
  EXPECT_EQ(empty->nodes, std::vector<std::string>{"empty"});
  std::optional<DisruptionCommand> drift =
      disruption::Drift().ComputeCommand(context);
  ASSERT_TRUE(drift) << Reasons(plan);
  EXPECT_EQ(drift->method, Method::kDrift);
  EXPECT_EQ(drift->nodes, std::vector<std::string>{"busy"});
  EXPECT_EQ(disruption::Emptiness().Candidates(context).size(), 1u);
  EXPECT_TRUE(disruption::Drift().Candidates(context).empty());
}

TEST_F(DisruptionTest, MethodsRunInKarpentersOrder) {
  std::vector<Method> order;
  for (const auto& method : disruption::MethodsInOrder()) {
    order.push_back(method->id());
    EXPECT_EQ(disruption::MethodFor(method->id())->id(), method->id());
  }
  EXPECT_EQ(order,
            (std::vector<Method>{Method::kExpiry, Method::kEmptiness,
                                 Method::kDrift, Method::kMultiNode,
                                 Method::kSingleNode, Method::kPriority}));
}

}  // namespace
}  // namespace propscaler::nodescale
