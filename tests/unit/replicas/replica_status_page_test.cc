#include "replicas/replica_status_page.h"

#include <gtest/gtest.h>

#include "unit/svg_test_util.h"

namespace propscaler {
namespace {

using std::chrono::minutes;

const TimePoint kStart = TimePoint(std::chrono::hours(1000));

ReplicaStatus Scaled() {
  ReplicaStatus status;
  status.params_in_force = {{"linear", R"({"nodesPerReplica":2,"min":1})"}};
  status.counts = {6, 6, 24, 24, std::nullopt};
  status.targets["deployment/coredns"] = {3, 3, "", ""};
  status.last_cycle = kStart + minutes(5);
  status.history.Record("nodes", kStart, 4);
  status.history.Record("nodes", kStart + minutes(5), 6);
  status.history.Record("replicas deployment/coredns", kStart, 2);
  status.history.Record("replicas deployment/coredns", kStart + minutes(5), 3);
  status.history.Mark(kStart + minutes(5), "deployment/coredns: 2 to 3");
  return status;
}

TEST(ReplicaStatusPageTest, DrawsReplicasNodesAndWhereTheClusterSits) {
  const std::string page =
      RenderReplicaStatusPage(Scaled(), kStart + minutes(6));
  EXPECT_TRUE(testing_util::SvgsBalance(page)) << page;
  EXPECT_NE(page.find("data-series=\"deployment/coredns\" data-values=\"2 3\""),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("data-series=\"nodes\" data-values=\"4 6\""),
            std::string::npos);
  EXPECT_NE(page.find("data-mark=\"deployment/coredns: 2 to 3\""),
            std::string::npos);
  // The params' curve, with the cluster at 6 nodes and 3 replicas on it.
  EXPECT_NE(page.find("data-now-nodes=\"6\" data-now-replicas=\"3\""),
            std::string::npos);
  EXPECT_NE(page.find("<span class=ok>ok</span>"), std::string::npos);
}

TEST(ReplicaStatusPageTest, WaitingIsNeitherOkNorFailed) {
  ReplicaStatus status;
  const std::string page = RenderReplicaStatusPage(
      status, kStart, {std::nullopt, "the first list of nodes"});
  EXPECT_NE(page.find("last cycle never <span class=wait>waiting: the first "
                      "list of nodes</span>"),
            std::string::npos)
      << page;
  EXPECT_EQ(page.find("class=ok>ok"), std::string::npos);
  EXPECT_NE(page.find("Replicas: nothing recorded yet"), std::string::npos);
  EXPECT_EQ(page.find("data-now-nodes"), std::string::npos)
      << "no params yet: no curve";
}

}  // namespace
}  // namespace propscaler
