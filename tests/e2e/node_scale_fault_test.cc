// Node-scale mode under faults: a node is never left tainted for deletion
// when its removal does not happen (provider error, restart in the middle of
// a scale-down), and a node that became needed is never deleted.
#include <gtest/gtest.h>

#include "e2e/node_scale_fixture.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

constexpr char kToBeDeleted[] = "ToBeDeletedByClusterAutoscaler";

TEST_F(NodeScaleTest, ProviderErrorLeavesNoDeletionTaint) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  CreateNode("static-1", "", "4");
  CreateNode("small-a", "small");
  // kwok removes a node by deleting the Node object: make that fail.
  sim::FaultRule refuse;
  refuse.method = "DELETE";
  refuse.path_prefix = "/api/v1/nodes/small-a";
  refuse.code = 500;
  refuse.count = -1;
  server_.AddFault(refuse);
  auto propscaler =
      Start({"--scale-down-unneeded-time=1s", "--scale-down-delay-after-add=0s",
             "--scale-down-delay-after-failure=60s"});
  ASSERT_TRUE(
      WaitUntil([&] { return CountEvents("default", "ScaleDownFailed") >= 1; },
                seconds(15)))
      << propscaler->Report();
  ASSERT_TRUE(WaitUntil([&] { return !NodeHasTaint("small-a", kToBeDeleted); },
                        seconds(5)))
      << propscaler->Report();
  std::optional<std::string> node = server_.GetObject("/api/v1/nodes/small-a");
  ASSERT_TRUE(node.has_value());
  EXPECT_EQ(node->find("\"unschedulable\":true"), std::string::npos) << *node;
}

TEST_F(NodeScaleTest, RestartMidScaleDownKeepsANodeThatBecameNeeded) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  CreateNode("static-1", "", "4");
  CreateNode("small-a", "small");
  // What a propscaler stopped between marking and deleting leaves behind
  // (its taint, its cordon and the mark saying the cordon is its own);
  // meanwhile a pod that needs the node was bound to it.
  ASSERT_TRUE(
      server_
          .PatchNode("small-a",
                     R"({"metadata":{"annotations":{)"
                     R"("propscaler.io/cordoned-by":"propscaler"}},)"
                     R"("spec":{"unschedulable":true,"taints":[)"
                     R"({"key":"ToBeDeletedByClusterAutoscaler",)"
                     R"("value":"1700000000","effect":"NoSchedule"}]}})")
          .ok());
  ASSERT_TRUE(NodeHasTaint("small-a", kToBeDeleted));
  CreatePod("web-0", "3", "small-a");
  auto propscaler = Start(
      {"--scale-down-unneeded-time=1s", "--scale-down-delay-after-add=0s"});
  ASSERT_TRUE(WaitUntil([&] { return !NodeHasTaint("small-a", kToBeDeleted); },
                        seconds(10)))
      << propscaler->Report();
  std::optional<std::string> node = server_.GetObject("/api/v1/nodes/small-a");
  ASSERT_TRUE(node.has_value());
  EXPECT_EQ(node->find("\"unschedulable\":true"), std::string::npos) << *node;
  // Several unneeded-times later the needed node is still there.
  EXPECT_FALSE(
      WaitUntil([&] { return NodesWithPrefix("small-a").empty(); }, seconds(3)))
      << propscaler->Report();
  EXPECT_NE(propscaler->Output().find("is not being removed"),
            std::string::npos);
  EXPECT_EQ(node->find("propscaler.io/cordoned-by"), std::string::npos)
      << *node;
}

// The same leftover taint on a node a person cordoned (no mark): the taint
// goes, the person's cordon and the taints of others stay.
TEST_F(NodeScaleTest, RestartKeepsAPersonsCordonAndOthersTaints) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  CreateNode("static-1", "", "4");
  CreateNode("small-a", "small");
  ASSERT_TRUE(
      server_
          .PatchNode(
              "small-a",
              R"({"spec":{"unschedulable":true,"taints":[)"
              R"({"key":"ToBeDeletedByClusterAutoscaler",)"
              R"("value":"1700000000","effect":"NoSchedule"},)"
              R"({"key":"maintenance","value":"disk",)"
              R"("effect":"NoExecute","timeAdded":"2026-01-01T00:00:00Z"}]}})")
          .ok());
  CreatePod("web-0", "3", "small-a");
  auto propscaler = Start(
      {"--scale-down-unneeded-time=1s", "--scale-down-delay-after-add=0s"});
  ASSERT_TRUE(WaitUntil([&] { return !NodeHasTaint("small-a", kToBeDeleted); },
                        seconds(10)))
      << propscaler->Report();
  std::optional<std::string> node = server_.GetObject("/api/v1/nodes/small-a");
  ASSERT_TRUE(node.has_value());
  EXPECT_NE(node->find("\"unschedulable\":true"), std::string::npos) << *node;
  EXPECT_NE(
      node->find(R"("key":"maintenance","value":"disk",)"
                 R"("effect":"NoExecute","timeAdded":"2026-01-01T00:00:00Z")"),
      std::string::npos)
      << *node;
}

}  // namespace
}  // namespace propscaler::e2e
