// End-to-end: Karpenter-style disruption in the propscaler binary
// (--mode=node-scale, kwok provider) against the simulated API server.
#include <gtest/gtest.h>

#include "apiserver/store_objects.h"
#include "e2e/node_scale_fixture.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

// Three 16-cpu nodes ($1/h each) with a 1-cpu pod each, and a 4-cpu group
// at $0.3/h that never consolidates: after the 15 s validation one small
// node is made, and once it is Ready the three big nodes are drained and
// deleted. The groups file declares pools, so --disruption=auto picks
// Karpenter's methods.
TEST_F(NodeScaleTest, ConsolidationReplacesThreeNodesByOneCheaperNode) {
  ASSERT_TRUE(
      sim::PutConfigMap(
          server_.store(), kNamespace, kGroupsConfigMap,
          {{"node-groups.json",
            R"({"pools":[{"name":"general","disruption":{)"
            R"("consolidateAfter":"0s","budgets":[{"nodes":"100%"}]}},)"
            R"({"name":"kept","disruption":{"consolidateAfter":"Never"}}],)"
            R"("nodeGroups":[)"
            R"({"name":"big","pool":"general","price":1.0,"minSize":0,)"
            R"("maxSize":5,"template":{"allocatable":{"cpu":"16",)"
            R"("memory":"16Gi","pods":"110"}}},)"
            R"({"name":"small","pool":"kept","price":0.3,"minSize":0,)"
            R"("maxSize":5,"template":{"allocatable":{"cpu":"4",)"
            R"("memory":"16Gi","pods":"110"}}}]})"}})
          .ok());
  for (int i = 0; i < 3; ++i) {
    const std::string node = "big-" + std::to_string(i);
    CreateNode(node, "big", "16");
    CreatePod("web-" + std::to_string(i), "1", node);
  }
  auto propscaler = Start({});
  ASSERT_TRUE(
      WaitUntil([&] { return NodesWithPrefix("big-").empty(); }, seconds(60)))
      << propscaler->Report();
  EXPECT_EQ(NodesWithPrefix("small-").size(), 1u);
  EXPECT_EQ(CountEvents("default", "DisruptionLaunching"), 3);
  const std::string log = propscaler->Output();
  EXPECT_NE(log.find("disruption: starting multi-node replace"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("-> 1 x small"), std::string::npos) << log;
  EXPECT_TRUE(propscaler->Running()) << log;
}

}  // namespace
}  // namespace propscaler::e2e
