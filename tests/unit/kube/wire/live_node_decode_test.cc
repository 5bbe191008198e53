// Node-scale mode's view of a node's readiness: Ready, and no longer
// carrying the not-ready taint the API server puts on every new node.
#include <gtest/gtest.h>

#include "kube/wire/pod_decode.h"

namespace propscaler::kube {
namespace {

std::string NodeList(const std::string& taints) {
  return R"({"kind":"NodeList","metadata":{"resourceVersion":"5"},"items":[)"
         R"({"metadata":{"name":"n1","uid":"u1"},"spec":{"taints":)" +
         taints +
         R"(},"status":{"allocatable":{"cpu":"4","memory":"16Gi","pods":"110"},)"
         R"("conditions":[{"type":"Ready","status":"True"}]}}]})";
}

TEST(LiveNodeDecodeTest, NotReadyTaintMeansTheNodeIsStillComing) {
  Result<ListPage<kube::LiveNode>> tainted = DecodeLiveNodeList(NodeList(
      R"([{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}])"));
  ASSERT_TRUE(tainted.ok()) << tainted.status().message();
  ASSERT_EQ(tainted->items.size(), 1u);
  EXPECT_FALSE(tainted->items[0].state.ready);

  Result<ListPage<kube::LiveNode>> lifted = DecodeLiveNodeList(
      NodeList(R"([{"key":"example.com/other","effect":"NoSchedule"}])"));
  ASSERT_TRUE(lifted.ok()) << lifted.status().message();
  EXPECT_TRUE(lifted->items[0].state.ready);
}

}  // namespace
}  // namespace propscaler::kube
