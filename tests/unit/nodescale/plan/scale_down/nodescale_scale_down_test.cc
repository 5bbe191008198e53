#include <gtest/gtest.h>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

class NodescaleScaleDownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    groups_ = {Group("g", 0, 10, 3, 4000, 16 * kGi)};
    // g-1 is busy and has room for 2 more cpu; g-2 and g-3 are light.
    snapshot_.nodes = {Node("g-1", "g", 4000, 16 * kGi),
                       Node("g-2", "g", 4000, 16 * kGi),
                       Node("g-3", "g", 4000, 16 * kGi)};
    snapshot_.pods = {BoundPod("busy", "g-1", 2000, kGi)};
  }

  ScaleDownPlan Plan() { return PlanScaleDown(snapshot_, groups_, config_); }

  // The node names removed, in order.
  std::vector<std::string> Removed() {
    std::vector<std::string> out;
    for (const NodeRemoval& r : Plan().removals) out.push_back(r.node);
    return out;
  }

  std::string KeptReason(const std::string& node) {
    for (const KeptNode& k : Plan().kept) {
      if (k.node == node) return k.reason;
    }
    return "";
  }

  PodState& AddPod(const std::string& name, const std::string& node,
                   int64_t cpu) {
    snapshot_.pods.push_back(BoundPod(name, node, cpu, 100 * kMi));
    return snapshot_.pods.MutableBack();
  }

  ClusterSnapshot snapshot_;
  std::vector<NodeGroup> groups_;
  ScaleDownConfig config_;
};

// As Cluster Autoscaler: DaemonSet and mirror pods count unless
// --ignore-daemonsets-utilization / --ignore-mirror-pods-utilization.
TEST_F(NodescaleScaleDownTest,
       UtilizationCountsDaemonSetAndMirrorPodsByDefault) {
  const NodeState& node = snapshot_.nodes[1];  // 4 cpu, 16 GiB
  PodState ds = DaemonSetPod("ds", "g-2", 1000, kGi);
  PodState mirror = BoundPod("static", "g-2", 1000, kGi, "");
  mirror.annotations = {{std::string(kMirrorPodAnnotation), "x"}};
  PodState app = BoundPod("app", "g-2", 1000, 8 * kGi);
  ScaleDownConfig config;
  EXPECT_DOUBLE_EQ(NodeUtilization(node, {&ds, &mirror, &app}, config), 0.75);
  config.ignore_daemonsets_utilization = true;
  EXPECT_DOUBLE_EQ(NodeUtilization(node, {&ds, &mirror, &app}, config),
                   std::max(2000.0 / 4000, 9.0 / 16));
  config.ignore_mirror_pods_utilization = true;
  EXPECT_DOUBLE_EQ(NodeUtilization(node, {&ds, &mirror, &app}, config), 0.5);
}

TEST_F(NodescaleScaleDownTest, EmptyFirstThenUnderutilized) {
  AddPod("light", "g-2", 500);
  const ScaleDownPlan plan = Plan();
  ASSERT_EQ(plan.removals.size(), 2u);
  EXPECT_EQ(plan.removals[0].node, "g-3");
  EXPECT_EQ(plan.removals[0].reason, NodeRemoval::Reason::kEmpty);
  EXPECT_EQ(plan.removals[1].node, "g-2");
  EXPECT_EQ(plan.removals[1].reason, NodeRemoval::Reason::kUnderutilized);
  EXPECT_EQ(RemovalReasonName(plan.removals[1].reason), "underutilized");
}

TEST_F(NodescaleScaleDownTest, ThresholdAndDisabledAnnotation) {
  AddPod("half", "g-2", 2000);  // exactly 0.5: not below the threshold
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-3"}));
  snapshot_.nodes[2].annotations = {
      {std::string(kScaleDownDisabledAnnotation), "true"}};
  EXPECT_TRUE(Removed().empty());
  // At 0.6 the half-used nodes qualify: g-1 (first by name) goes, its pod
  // moves to g-2; g-2 stays a candidate with it (as in Cluster Autoscaler's
  // planner, only removed nodes stop being destinations) and goes too, both
  // pods moving to g-3, which scale-down may not take.
  config_.utilization_threshold = 0.6;
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-1", "g-2"}));
}

// A group's own threshold (Cluster API's autoscaling-options annotation)
// beats the flag's, and its own unneeded time rides on each removal.
TEST_F(NodescaleScaleDownTest, AGroupsOwnThresholdAndWaitBeatTheFlags) {
  AddPod("half", "g-2", 2000);  // 0.5: kept at the flag's 0.5
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-3"}));
  groups_[0].options.scale_down_utilization_threshold = 0.6;
  groups_[0].options.scale_down_unneeded_time = std::chrono::minutes(2);
  const ScaleDownPlan plan = Plan();
  ASSERT_EQ(plan.removals.size(), 2u);
  EXPECT_EQ(plan.removals[0].wait, std::chrono::minutes(2));
  config_.utilization_threshold = 0.6;
  groups_[0].options = {};
  EXPECT_EQ(Plan().removals.size(), 2u);
  EXPECT_EQ(Plan().removals[0].wait, std::nullopt);
}

// As Cluster Autoscaler (1.35) for a MachineDeployment rolling out: while
// its machines are being replaced, none of its nodes is a candidate.
TEST_F(NodescaleScaleDownTest, ARollingOutGroupKeepsItsNodes) {
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-2", "g-3"}));
  groups_[0].rolling_out = true;
  EXPECT_TRUE(Removed().empty());
}

TEST_F(NodescaleScaleDownTest, GroupMinSizeIsKept) {
  groups_[0].min_size = 2;
  AddPod("light", "g-2", 100);
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-3"}));
  EXPECT_EQ(KeptReason("g-2"), "node group g at min size 2");
}

TEST_F(NodescaleScaleDownTest, NodesOutsideKnownGroupsAreLeftAlone) {
  snapshot_.nodes.push_back(Node("loose", "", 4000, 16 * kGi));
  snapshot_.nodes.push_back(Node("x-1", "unknown", 4000, 16 * kGi));
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-2", "g-3"}));
}

TEST_F(NodescaleScaleDownTest, PodWithoutControllerBlocks) {
  snapshot_.pods.push_back(BoundPod("bare", "g-2", 100, kMi, ""));
  EXPECT_EQ(KeptReason("g-2"), "pod default/bare has no controller");
  snapshot_.pods.MutableBack().annotations = {
      {std::string(kSafeToEvictAnnotation), "true"}};
  EXPECT_EQ(KeptReason("g-2"), "");
}

TEST_F(NodescaleScaleDownTest, SafeToEvictFalseBlocks) {
  AddPod("precious", "g-2", 100).annotations = {
      {std::string(kSafeToEvictAnnotation), "false"}};
  EXPECT_EQ(KeptReason("g-2"),
            "pod default/precious is annotated safe-to-evict: \"false\"");
}

TEST_F(NodescaleScaleDownTest, LocalStorageBlocksUnlessSafeToEvict) {
  AddPod("cache", "g-2", 100).has_local_storage = true;
  EXPECT_EQ(KeptReason("g-2"),
            "pod default/cache has local storage (emptyDir or hostPath)");
  snapshot_.pods.MutableBack().annotations = {
      {std::string(kSafeToEvictAnnotation), "true"}};
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-3", "g-2"}));
}

TEST_F(NodescaleScaleDownTest, KubeSystemPodsBlock) {
  AddPod("coredns", "g-2", 100).namespace_ = "kube-system";
  EXPECT_EQ(KeptReason("g-2"),
            "pod kube-system/coredns is in kube-system and no "
            "PodDisruptionBudget covers it");
  // DaemonSet pods in kube-system do not.
  snapshot_.pods.MutableBack() = DaemonSetPod("proxy", "g-2", 100, kMi);
  EXPECT_EQ(KeptReason("g-2"), "");
}

TEST_F(NodescaleScaleDownTest, PodsThatFitNowhereBlock) {
  snapshot_.nodes.pop_back();  // g-1 (2 cpu free) and g-2 only
  groups_[0].target_size = 2;
  AddPod("wide", "g-2", 2500)
      .annotations.clear();  // 62.5% would not be a candidate; lower it
  config_.utilization_threshold = 0.7;
  EXPECT_EQ(KeptReason("g-2"), "pod default/wide fits on no other node");
}

TEST_F(NodescaleScaleDownTest, MovedPodsAreCountedOnTheirDestination) {
  // g-2 and g-3 each carry 1.5 cpu; g-1 has 2 cpu free, so only one of
  // them can move there; the other must stay (g-3 cannot take g-2's pods
  // once it is itself gone, and vice versa).
  AddPod("a", "g-2", 1500);
  AddPod("b", "g-3", 1500);
  const ScaleDownPlan plan = Plan();
  ASSERT_EQ(plan.removals.size(), 1u);
  EXPECT_EQ(plan.removals[0].node, "g-2");
  EXPECT_EQ(KeptReason("g-3"), "pod default/b fits on no other node");
}

TEST_F(NodescaleScaleDownTest, NodeThatReceivedPodsMustPlaceThemToo) {
  snapshot_.pods.clear();  // g-1 empty now; g-2 light
  AddPod("a", "g-2", 500);
  AddPod("b", "g-3", 600);
  const ScaleDownPlan plan = Plan();
  // g-1 is empty and goes first; g-2's pod moves to g-3, which then has
  // nowhere to send its own pod and the one it received.
  ASSERT_EQ(plan.removals.size(), 2u);
  EXPECT_EQ(plan.removals[0].node, "g-1");
  EXPECT_EQ(plan.removals[1].node, "g-2");
  EXPECT_EQ(KeptReason("g-3"), "pod default/b fits on no other node");
}

// Cluster Autoscaler's RunOnce scale-down benchmark in small
// (core/bench/benchmark_runonce_test.go: every node at 40%, pods of 10% of
// a node here): 60% of the nodes go, the rest end full. A node that
// received pods in the pass moves them on if it goes too, so none is left
// on a removed node.
TEST_F(NodescaleScaleDownTest, FortyPercentNodesPackIntoTwoFifths) {
  groups_ = {Group("g", 0, 10, 5, 4000, 16 * kGi)};
  snapshot_.nodes.clear();
  snapshot_.pods.clear();
  for (int n = 1; n <= 5; ++n) {
    const std::string node = "n-" + std::to_string(n);
    snapshot_.nodes.push_back(Node(node, "g", 4000, 16 * kGi));
    for (int p = 0; p < 4; ++p) {
      AddPod(node + "-p" + std::to_string(p), node, 400).annotations = {
          {std::string(kSafeToEvictAnnotation), "true"}};
    }
  }
  EXPECT_EQ(Removed(), (std::vector<std::string>{"n-1", "n-2", "n-3"}));
  EXPECT_EQ(KeptReason("n-4"), "pod default/n-4-p0 fits on no other node");
}

// Cluster Autoscaler's filter-out-schedulable: nodes just made for pending
// pods are not unneeded while the pods wait for the scheduler.
TEST_F(NodescaleScaleDownTest, PendingPodsKeepTheNodesTheyWillUse) {
  snapshot_.pods.clear();
  snapshot_.pods.push_back(Pod("wait-1", 3000, kGi));
  snapshot_.pods.push_back(Pod("wait-2", 3000, kGi));
  const ScaleDownPlan plan = Plan();
  // Two of the three empty nodes are taken by the pending pods; one goes.
  ASSERT_EQ(plan.removals.size(), 1u) << plan.removals[0].node;
  EXPECT_EQ(plan.removals[0].node, "g-3");
}

TEST_F(NodescaleScaleDownTest, PendingPodsPreferNodesAlreadyInUse) {
  snapshot_.pods.push_back(Pod("small", 1500, kGi));  // fits beside "busy"
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-2", "g-3"}));
}

TEST_F(NodescaleScaleDownTest, PendingPodsWaitForANodeThatIsNotReadyYet) {
  snapshot_.nodes[1].ready = false;
  snapshot_.nodes[2].ready = false;
  snapshot_.pods.push_back(Pod("wait", 3000, kGi));
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-3"}));
}

// A node not Ready is removed as any other, marked to wait
// --scale-down-unready-time; --scale-down-unready-enabled=false keeps it.
TEST_F(NodescaleScaleDownTest, UnreadyNodesGoLaterOrNotAtAll) {
  snapshot_.nodes[2].ready = false;  // g-3
  ScaleDownPlan plan = Plan();
  ASSERT_EQ(plan.removals.size(), 2u);
  for (const NodeRemoval& removal : plan.removals) {
    EXPECT_EQ(removal.unready, removal.node == "g-3") << removal.node;
  }
  config_.unready_enabled = false;
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-2"}));
  EXPECT_EQ(KeptReason("g-3"),
            "not Ready, and --scale-down-unready-enabled=false");
}

TEST_F(NodescaleScaleDownTest, PendingPodsDoNotKeepCordonedOrTooSmallNodes) {
  snapshot_.nodes[1].unschedulable = true;
  snapshot_.pods.push_back(Pod("huge", 8000, kGi));  // fits no node
  snapshot_.pods.push_back(Pod("wait", 3000, kGi));  // g-3, not cordoned g-2
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-2"}));
}

TEST_F(NodescaleScaleDownTest, PodsNeedTheirHostPortFreeWhereTheyMove) {
  snapshot_.pods.Mutable(0).host_ports = {{8080, "TCP"}};  // "busy" on g-1
  AddPod("agent", "g-2", 500).host_ports = {{8080, "TCP"}};
  snapshot_.nodes.pop_back();  // g-1 and g-2 only
  groups_[0].target_size = 2;
  EXPECT_EQ(KeptReason("g-2"), "pod default/agent fits on no other node");
}

TEST_F(NodescaleScaleDownTest, MinimumCoresAreKept) {
  config_.limits.min_cores = 8;  // 12 cores now: one 4-core node may go
  EXPECT_EQ(Removed(), (std::vector<std::string>{"g-2"}));
  EXPECT_EQ(KeptReason("g-3"),
            "removal would cross the --cores-total or --memory-total minimum");
}

TEST_F(NodescaleScaleDownTest, EvictionBlockerOrder) {
  PodState pod = Pod("p", 1, 1, "");
  pod.node_name = "n";
  pod.annotations = {{std::string(kSafeToEvictAnnotation), "true"}};
  pod.namespace_ = "kube-system";
  pod.has_local_storage = true;
  EXPECT_EQ(EvictionBlocker(pod, {}), std::nullopt);  // true overrides all
  pod.annotations.clear();
  EXPECT_EQ(*EvictionBlocker(pod, {}), "pod kube-system/p has no controller");
  pod.terminated = true;
  EXPECT_EQ(EvictionBlocker(pod, {}), std::nullopt);
}

TEST_F(NodescaleScaleDownTest, EvictionGraceIsThePodsOwnCappedByTheFlag) {
  PodState pod = Pod("p", 1, 1, "");
  EXPECT_EQ(EvictionGraceSeconds(pod, 600), 30);  // the API default
  pod.termination_grace_seconds = 3600;
  EXPECT_EQ(EvictionGraceSeconds(pod, 600), 600);
  pod.termination_grace_seconds = 0;
  EXPECT_EQ(EvictionGraceSeconds(pod, 600), 0);
  pod.termination_grace_seconds = 45;
  EXPECT_EQ(EvictionGraceSeconds(pod, 0), 0);
}

}  // namespace
}  // namespace propscaler::nodescale

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

// CA's PodDisruptionBudget rules in planning: a budget with one disruption
// left lets one of two light nodes go, the other is kept for it (the budget
// is spent across the pass); a kube-system pod a budget covers may go.
TEST_F(NodescaleScaleDownTest, PodDisruptionBudgetsAreSpentAcrossThePass) {
  for (const char* node : {"g-2", "g-3"}) {
    AddPod(std::string("web-") + node, node, 500).labels =
        Labels{{"app", "web"}};
  }
  PdbState pdb;
  pdb.namespace_ = "default";
  pdb.name = "web";
  pdb.selector = *LabelSelector::Parse("app=web");
  pdb.disruptions_allowed = 1;
  snapshot_.pdbs = {pdb};
  EXPECT_EQ(Removed().size(), 1u);
  EXPECT_EQ(KeptReason("g-3"),
            "pod default/web-g-3: PodDisruptionBudget default/web has no "
            "disruption left");

  PodState system = BoundPod("dns", "g-2", 100, 100 * kMi);
  system.namespace_ = "kube-system";
  system.labels = Labels{{"k8s-app", "dns"}};
  EXPECT_EQ(*EvictionBlocker(system, {}),
            "pod kube-system/dns is in kube-system and no "
            "PodDisruptionBudget covers it");
  PdbState dns;
  dns.namespace_ = "kube-system";
  dns.name = "dns";
  dns.selector = *LabelSelector::Parse("k8s-app=dns");
  dns.disruptions_allowed = 1;
  EXPECT_EQ(EvictionBlocker(system, {dns}), std::nullopt);
}

}  // namespace
}  // namespace propscaler::nodescale
