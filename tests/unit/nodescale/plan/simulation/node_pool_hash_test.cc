// Which NodePool edits drift its nodes (Karpenter's NodePoolDrifted, facts
// of nodeclaim/disruption/drift_test.go:469-476): template labels, taints,
// startup taints, expireAfter and terminationGracePeriod do; requirements,
// weight, limits and disruption settings do not.
#include <gtest/gtest.h>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/simulation/template_hash.h"

namespace propscaler::nodescale {
namespace {

NodePoolSpec Pool() {
  NodePoolSpec pool;
  pool.name = "general";
  pool.labels = {{"team", "a"}};
  pool.taints = {{"dedicated", "a", kube::TaintEffect::kNoSchedule}};
  return pool;
}

TEST(NodePoolHashTest, TemplateFieldsChangeItBehaviourFieldsDoNot) {
  const std::string base = NodePoolHash(Pool());
  EXPECT_EQ(base, NodePoolHash(Pool()));
  EXPECT_EQ(base.size(), 16u);
  std::vector<std::pair<const char*, NodePoolSpec>> drifting;
  NodePoolSpec p = Pool();
  p.labels["team"] = "b";
  drifting.emplace_back("labels", p);
  p = Pool();
  p.taints.clear();
  drifting.emplace_back("taints", p);
  p = Pool();
  p.startup_taints = {{"starting", "", kube::TaintEffect::kNoSchedule}};
  drifting.emplace_back("startupTaints", p);
  p = Pool();
  p.disruption.expire_after = std::nullopt;
  drifting.emplace_back("expireAfter", p);
  p = Pool();
  p.termination_grace_period = std::chrono::minutes(5);
  drifting.emplace_back("terminationGracePeriod", p);
  for (const auto& [field, pool] : drifting) {
    EXPECT_NE(NodePoolHash(pool), base) << field;
  }
  p = Pool();
  p.weight = 50;
  p.limits["cpu"] = 1000;
  p.requirements.push_back({{"kubernetes.io/arch",
                             kube::NodeSelectorRequirement::Op::kIn,
                             {"amd64"}},
                            0});
  p.disruption.consolidate_after = std::chrono::minutes(1);
  EXPECT_EQ(NodePoolHash(p), base);
}

TEST(NodePoolHashTest, ANodeOfAnotherVersionOfItsNodePoolHasDrifted) {
  NodeGroup group;
  group.name = "general.c-4x";
  group.pool = "general";
  group.declared_template = NodeTemplate{};
  group.declared_template->annotations[std::string(kNodePoolHashAnnotation)] =
      "0000000000000002";
  NodeState node;
  node.name = "general-abcde";
  EXPECT_EQ(DriftOf(node, group), "");  // not stamped: cannot drift
  node.annotations[std::string(kNodePoolHashAnnotation)] = "0000000000000001";
  EXPECT_EQ(DriftOf(node, group),
            "node general-abcde was made from another version of NodePool "
            "general (nodepool-hash 0000000000000001, now 0000000000000002)");
  group.retired = "NodePool general no longer offers group general.c-4x";
  EXPECT_EQ(DriftOf(node, group),
            "node general-abcde: NodePool general no longer offers group "
            "general.c-4x");
}

}  // namespace
}  // namespace propscaler::nodescale
