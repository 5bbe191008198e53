// DecodeNodePools: Karpenter NodePools (karpenter.sh/v1) from YAML documents
// and from `kubectl get nodepools -o json`, and the errors that name what is
// wrong.
#include "nodescale/domain/node_pools_json.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using Op = kube::NodeSelectorRequirement::Op;

constexpr const char* kFull = R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
  weight: 50
  template:
    metadata:
      labels:
        team: web
    spec:
      requirements:
        - key: karpenter.kwok.sh/instance-cpu
          operator: Gte
          values: ["4"]
        - key: karpenter.kwok.sh/instance-family
          operator: In
          values: [c, s, m]
          minValues: 2
        - key: kubernetes.io/os
          operator: Exists
      taints:
        - key: dedicated
          value: web
          effect: NoSchedule
      startupTaints:
        - key: example.com/agent
          effect: NoExecute
      expireAfter: Never
      terminationGracePeriod: 1h
  limits:
    cpu: 1000
    memory: 1000Gi
    nodes: "10"
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s
    budgets:
      - nodes: "20%"
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: spare
spec:
  template:
    spec:
      requirements: []
)";

TEST(NodePoolsJsonTest, DecodesEveryFieldFromYamlDocuments) {
  Result<std::vector<NodePoolSpec>> pools = DecodeNodePools(kFull);
  ASSERT_TRUE(pools.ok()) << pools.status().message();
  ASSERT_EQ(pools->size(), 2u);
  const NodePoolSpec& pool = (*pools)[0];
  EXPECT_EQ(pool.name, "general");
  EXPECT_EQ(pool.weight, 50);
  EXPECT_EQ(pool.labels, (Labels{{"team", "web"}}));
  ASSERT_EQ(pool.requirements.size(), 3u);
  // Gte 4 is kept as Gt 3.
  EXPECT_EQ(pool.requirements[0].requirement.op, Op::kGt);
  EXPECT_EQ(pool.requirements[0].requirement.values,
            std::vector<std::string>{"3"});
  EXPECT_EQ(pool.requirements[1].min_values, 2);
  EXPECT_EQ(pool.requirements[1].requirement.values,
            (std::vector<std::string>{"c", "s", "m"}));
  EXPECT_EQ(pool.requirements[2].requirement.op, Op::kExists);
  ASSERT_EQ(pool.taints.size(), 1u);
  EXPECT_EQ(pool.taints[0].key, "dedicated");
  ASSERT_EQ(pool.startup_taints.size(), 1u);
  EXPECT_EQ(pool.startup_taints[0].effect, kube::TaintEffect::kNoExecute);
  EXPECT_EQ(pool.limits.at("cpu"), 1'000'000);  // millicores
  EXPECT_EQ(pool.limits.at("memory"), int64_t{1000} << 30);
  EXPECT_EQ(pool.limits.at("nodes"), 10);
  EXPECT_EQ(pool.disruption.name, "general");
  EXPECT_EQ(pool.disruption.consolidation_policy,
            ConsolidationPolicy::kWhenEmpty);
  EXPECT_EQ(pool.disruption.consolidate_after, std::chrono::seconds(30));
  ASSERT_EQ(pool.disruption.budgets.size(), 1u);
  EXPECT_EQ(pool.disruption.budgets[0].nodes, "20%");
  EXPECT_FALSE(pool.disruption.expire_after.has_value());  // Never
  EXPECT_EQ(pool.termination_grace_period, std::chrono::hours(1));
  // Karpenter's defaults where the second says nothing.
  const NodePoolSpec& spare = (*pools)[1];
  EXPECT_EQ(spare.weight, 0);
  EXPECT_EQ(spare.disruption.expire_after, std::chrono::hours(720));
  EXPECT_TRUE(spare.limits.empty());
}

TEST(NodePoolsJsonTest, DocumentMarkersSeparateAndEndDocuments) {
  const std::string pool =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ";
  const std::string spec = "\nspec:\n  template:\n    spec: {}\n";
  Result<std::vector<NodePoolSpec>> pools =
      DecodeNodePools("# pools\n---\n" + pool + "a" + spec +
                      "...\n--- # next\n" + pool + "b" + spec + "---\n");
  ASSERT_TRUE(pools.ok()) << pools.status().message();
  ASSERT_EQ(pools->size(), 2u);
  EXPECT_EQ((*pools)[1].name, "b");
}

TEST(NodePoolsJsonTest, DecodesKubectlsJsonList) {
  Result<std::vector<NodePoolSpec>> pools = DecodeNodePools(R"({
    "apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
       "metadata": {"name": "a"},
       "spec": {"template": {"spec": {"requirements": [
         {"key": "kubernetes.io/arch", "operator": "In",
          "values": ["arm64"]}]}}}},
      {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
       "metadata": {"name": "b"}, "spec": {"weight": 3,
       "template": {"spec": {}}}}]})");
  ASSERT_TRUE(pools.ok()) << pools.status().message();
  ASSERT_EQ(pools->size(), 2u);
  EXPECT_EQ((*pools)[0].requirements[0].requirement.key, "kubernetes.io/arch");
  EXPECT_EQ((*pools)[1].weight, 3);
}

// Each error names the NodePool (or document), the field and the value.
TEST(NodePoolsJsonTest, ErrorsNameTheObjectFieldAndValue) {
  const std::string head =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: p\n";
  const std::pair<std::string, std::string> cases[] = {
      {"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n"
       "  name: p\nspec: {}\n",
       "NodePool karpenter.sh/v1beta1 is not a NodePool karpenter.sh/v1"},
      {"apiVersion: karpenter.sh/v1\nkind: NodePool\nspec: {}\n",
       "document 1.metadata.name: missing"},
      {head + "spec: {}\n", "NodePool p.spec.template: missing"},
      {head + "spec:\n  template:\n    spec:\n      requirements:\n"
              "        - {key: a, operator: Near, values: [b]}\n",
       "NodePool p.spec.template.spec.requirements[0].operator: \"Near\""},
      {head + "spec:\n  template:\n    spec:\n      requirements:\n"
              "        - {key: a, operator: In}\n",
       "requirements[0].values: In needs at least one value"},
      {head + "spec:\n  template:\n    spec:\n      requirements:\n"
              "        - {key: a, operator: In, values: [b], minValues: 2}\n",
       "requirements[0].minValues: 2 is more than its 1 values"},
      {head + "spec:\n  template:\n    spec:\n      requirements:\n"
              "        - {key: a, operator: Gt, values: [big]}\n",
       "requirements[0].values: Gt and Lt take one integer value"},
      {head + "spec:\n  template:\n    spec:\n      requirements:\n"
              "        - {key: a, operator: Gte, values: [\"-1\"]}\n",
       "requirements[0].values: Gte -1: must be 0 or more"},
      // Karpenter's CRD's CEL rules, which kube-apiserver 1.20 does not run.
      {head + "spec:\n  template:\n    spec:\n      requirements:\n"
              "        - {key: karpenter.sh/nodepool, operator: In, "
              "values: [b]}\n",
       "requirements[0].key: \"karpenter.sh/nodepool\": label "
       "\"karpenter.sh/nodepool\" is restricted"},
      {head + "spec:\n  template:\n    spec:\n      requirements:\n"
              "        - {key: kubernetes.io/hostname, operator: In, "
              "values: [b]}\n",
       "label \"kubernetes.io/hostname\" is restricted"},
      {head + "spec:\n  template:\n    metadata:\n      labels:\n"
              "        team.karpenter.sh/x: y\n    spec: {}\n",
       "NodePool p.spec.template.metadata.labels.team.karpenter.sh/x: label "
       "domain \"karpenter.sh\" is restricted"},
      {head + "spec:\n  weight: 101\n  template:\n    spec: {}\n",
       "NodePool p.spec.weight: 101 is not from 1 to 100"},
      {head + "spec:\n  limits:\n    cpu: lots\n  template:\n    spec: {}\n",
       "NodePool p.spec.limits.cpu"},
      {head + "spec:\n  template:\n    spec: {}\n---\n" + head +
           "spec:\n  template:\n    spec: {}\n",
       "NodePool p is declared twice"},
      {"a: [b\n", "YAML line"},
      // yaml-cpp's LoadAll never returns on this stream.
      {"\"16Gi\",\"pods\":\"110\"},\"la.*.\n", "document 1"},
      {"", "no NodePool in the file"},
  };
  for (const auto& [text, want] : cases) {
    Result<std::vector<NodePoolSpec>> pools = DecodeNodePools(text);
    ASSERT_FALSE(pools.ok()) << text;
    EXPECT_NE(pools.status().message().find(want), std::string::npos)
        << pools.status().message() << "\nwanted: " << want;
  }
}

}  // namespace
}  // namespace propscaler::nodescale
