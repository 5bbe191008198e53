#include <gtest/gtest.h>

#include <random>

#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

TEST(NodescaleTemplateTest, ReadyNodeFirstThenRememberedThenDeclared) {
  NodeGroup group = Group("g", 0, 10, 2, 2000, 4 * kGi);
  NodeState not_ready = Node("g-1", "g", 8000, 32 * kGi);
  not_ready.ready = false;
  NodeState ready = Node("g-2", "g", 4000, 16 * kGi);
  NodeTemplate remembered{Res(3000, 12 * kGi), {}, {}};

  auto chosen = ChooseTemplate(group, {&not_ready, &ready}, &remembered, {});
  ASSERT_TRUE(chosen);
  EXPECT_EQ(chosen->source, TemplateSource::kReadyNode);
  EXPECT_EQ(chosen->node.allocatable.cpu_millis, 4000);

  chosen = ChooseTemplate(group, {&not_ready}, &remembered, {});
  ASSERT_TRUE(chosen);
  EXPECT_EQ(chosen->source, TemplateSource::kRemembered);
  EXPECT_EQ(chosen->node.allocatable.cpu_millis, 3000);

  chosen = ChooseTemplate(group, {&not_ready}, nullptr, {});
  ASSERT_TRUE(chosen);
  EXPECT_EQ(chosen->source, TemplateSource::kDeclared);
  // As the group's nodes will be: with its label, which a pod may select.
  NodeTemplate declared = *group.declared_template;
  declared.labels[std::string(kNodeGroupLabel)] = "g";
  EXPECT_EQ(chosen->node, declared);

  group.declared_template.reset();
  EXPECT_FALSE(ChooseTemplate(group, {}, nullptr, {}));
}

TEST(NodescaleTemplateTest, LiveNodesLeaveOneTemplateAGroup) {
  ClusterSnapshot snapshot;
  NodeState cordoned = Node("g-1", "g", 8000, 32 * kGi);
  cordoned.unschedulable = true;
  NodeState with_csi = Node("g-2", "g", 4000, 16 * kGi);
  with_csi.volume_limits = {{"ebs.csi.aws.com", 25}};
  NodeState without_csi = Node("g-3", "g", 2000, 8 * kGi);
  NodeState not_ready = Node("h-1", "h", 2000, 8 * kGi);
  not_ready.ready = false;
  NodeState other = Node("h-2", "h", 1000, 4 * kGi);
  NodeState no_group = Node("x-1", "", 1000, 4 * kGi);
  no_group.labels.erase(std::string(kNodeGroupLabel));
  snapshot.nodes = {cordoned,  with_csi, without_csi,
                    not_ready, other,    no_group};

  const auto templates = TemplatesOfLiveNodes(snapshot, {});
  ASSERT_EQ(templates.size(), 2u);
  // Not the cordoned one, nor the one whose CSI driver has not registered.
  EXPECT_EQ(templates.at("g").allocatable.cpu_millis, 4000);
  EXPECT_EQ(templates.at("h").allocatable.cpu_millis, 1000);
  EXPECT_EQ(templates.at("h").labels.at(std::string(kNodeGroupLabel)), "h");
}

TEST(NodescaleTemplateTest, TemplateFromNodeDropsHostnameAndStateTaints) {
  NodeState node = Node("g-1", "g", 4000, 16 * kGi);
  node.labels["pool"] = "web";
  node.taints = {
      {"dedicated", "web", TaintEffect::kNoSchedule},
      {"node.kubernetes.io/unschedulable", "", TaintEffect::kNoSchedule},
      {"ToBeDeletedByClusterAutoscaler", "1", TaintEffect::kNoSchedule},
      {"startup-taint.cluster-autoscaler.kubernetes.io/cni", "",
       TaintEffect::kNoSchedule},
      {"status-taint.cluster-autoscaler.kubernetes.io/gpu-health", "",
       TaintEffect::kNoSchedule},
      {"cloud.google.com/impending-node-termination", "",
       TaintEffect::kNoSchedule},
      {"example.com/agent-starting", "", TaintEffect::kNoSchedule},
      {"agents.example.com/cni", "", TaintEffect::kNoSchedule},
      {"example.com/gpu-health", "", TaintEffect::kNoSchedule}};
  // --startup-taint, --startup-taint-prefix and --status-taint name more.
  const TaintKinds kinds{.startup_prefixes = {"agents.example.com/"},
                         .startup_keys = {"example.com/agent-starting"},
                         .status_keys = {"example.com/gpu-health"}};
  NodeTemplate t = TemplateFromNode(node, kinds);
  EXPECT_FALSE(t.labels.contains(std::string(kHostnameLabel)));
  EXPECT_EQ(t.labels.at("pool"), "web");
  ASSERT_EQ(t.taints.size(), 1u);
  EXPECT_EQ(t.taints[0].key, "dedicated");
}

// Cluster Autoscaler sanitizes provider templates too: a declared
// template's startup taints (the prefix, the deprecated ignore-taint one,
// --startup-taint's keys) and status taints are left out, so a pod that
// does not tolerate them fits on the node the group would add; its other
// taints stay.
TEST(NodescaleTemplateTest, ADeclaredTemplateLeavesOutStartupTaints) {
  NodeGroup group = Group("g", 0, 10, 0, 4000, 16 * kGi);
  group.declared_template->taints = {
      {"dedicated", "web", TaintEffect::kNoSchedule},
      {"startup-taint.cluster-autoscaler.kubernetes.io/cni", "",
       TaintEffect::kNoSchedule},
      {"ignore-taint.cluster-autoscaler.kubernetes.io/csi", "",
       TaintEffect::kNoSchedule},
      {"example.com/agent-starting", "", TaintEffect::kNoExecute},
      {"status-taint.cluster-autoscaler.kubernetes.io/gpu", "",
       TaintEffect::kNoSchedule}};
  const TaintKinds kinds{.startup_keys = {"example.com/agent-starting"}};
  for (const std::optional<NodeTemplate>& t :
       {DeclaredTemplate(group, kinds),
        std::optional<NodeTemplate>(
            ChooseTemplate(group, {}, nullptr, kinds)->node)}) {
    ASSERT_TRUE(t);
    ASSERT_EQ(t->taints.size(), 1u);
    EXPECT_EQ(t->taints[0].key, "dedicated");
  }
  // Without --startup-taint its key is an ordinary taint.
  EXPECT_EQ(DeclaredTemplate(group, {})->taints.size(), 2u);
}

TEST(NodescaleTemplateTest, DaemonSetsThatWouldLandAreSubtracted) {
  NodeTemplate t{Res(4000, 16 * kGi),
                 {{"pool", "gpu"}},
                 {{"gpu", "yes", TaintEffect::kNoSchedule}}};
  std::vector<PodState> pods = {DaemonSetPod("logs-1", "n1", 100, 200 * kMi),
                                DaemonSetPod("logs-2", "n2", 100, 200 * kMi)};
  pods.push_back(DaemonSetPod("gpu-plugin-1", "n1", 50, 50 * kMi));
  pods.back().owner_name = "gpu-plugin";
  pods.back().tolerations = {{"gpu", Toleration::Op::kExists, ""}};
  pods.push_back(DaemonSetPod("ssd-1", "n1", 300, 300 * kMi));
  pods.back().owner_name = "ssd";
  pods.back().node_selector = {{"disk", "ssd"}};
  const PodList list(pods);
  std::vector<const PodState*> daemonsets = OnePodPerDaemonSet(list);
  ASSERT_EQ(daemonsets.size(), 3u);  // logs counted once
  // "logs" does not tolerate the gpu taint, "ssd" does not select it: only
  // the gpu plugin runs there.
  Resources free = FreeOnNewNode(t, daemonsets);
  EXPECT_EQ(free.cpu_millis, 3950);
  EXPECT_EQ(free.memory_bytes, 16 * kGi - 50 * kMi);
  EXPECT_EQ(free.pods, 109);
}

// The known CA failure on AWS: a table says 4Gi for a node that has 16Gi.
// Scale from zero must trust the declared 16Gi.
TEST(NodescaleTemplateTest, ScaleFromZeroUsesDeclaredMemory) {
  ClusterSnapshot snapshot;
  snapshot.pods = {Pod("big-mem", 1000, 12 * kGi)};
  std::vector<NodeGroup> groups = {Group("m5", 0, 5, 0, 4000, 16 * kGi)};
  std::mt19937_64 rng(0);
  auto expander = MakeExpanderChain("least-waste", {}, &rng);
  ScaleUpPlan plan = PlanScaleUp(snapshot, groups, {}, {}, expander->get());
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "m5");
  EXPECT_EQ(plan.increases[0].delta, 1);

  groups[0].declared_template->allocatable.memory_bytes = 4 * kGi;
  plan = PlanScaleUp(snapshot, groups, {}, {}, expander->get());
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("m5"),
            "does not fit: insufficient memory on an empty new node");
}

}  // namespace
}  // namespace propscaler::nodescale
