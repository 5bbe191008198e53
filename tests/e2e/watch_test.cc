// The node watch survives what real API servers do: expired
// resourceVersions (410), streams that end or drop, and lists in pages.
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

class WatchTest : public ReplicaClusterTest {
 protected:
  // Paged lists and plain watches (WatchList: watch_list_test.cc).
  void SetUp() override {
    sim::FakeApiServerOptions options;
    options.watch_list = sim::WatchListSupport::kBefore;
    StartServerWithPerNodeParams(options);
  }

  // Adds `nodes` while the node watch is down, then the history is gone:
  // only a new list can bring the node count right.
  void AddNodesWhileTheHistoryExpires(int nodes) {
    sim::FaultRule refuse_watches;
    refuse_watches.method = "WATCH";
    refuse_watches.path_prefix = "/api/v1/nodes";
    refuse_watches.count = -1;
    server_.AddFault(refuse_watches);
    server_.DropWatches();
    AddNodes(nodes);
    server_.CompactHistory();
    server_.ClearFaults();
  }
};

TEST_F(WatchTest, ListsAgainAfterExpiredResourceVersion) {
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(
      WaitUntil([&] { return server_.open_watches() >= 2; }, seconds(3)));
  const int64_t lists_before = server_.Requests().Count("GET /api/v1/nodes");
  AddNodesWhileTheHistoryExpires(2);
  ASSERT_TRUE(WaitForReplicas(6, seconds(5))) << propscaler->Report();
  EXPECT_GT(server_.Requests().Count("GET /api/v1/nodes"), lists_before);
}

TEST_F(WatchTest, ReconnectsAfterTheServerFailsWatches) {
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  sim::FaultRule rule;
  rule.method = "WATCH";
  rule.path_prefix = "/api/v1/nodes";
  rule.code = 503;
  rule.count = 2;
  server_.AddFault(rule);
  server_.DropWatches();
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(8))) << propscaler->Report();
  EXPECT_NE(propscaler->Output().find("HTTP 503"), std::string::npos);
}

// The first list is one request of resourceVersion 0, which the server
// answers whole from its watch cache; a list again after the history
// expired reads the newest version, in pages of 500.
TEST_F(WatchTest, FirstListIsWholeFromTheCacheAListAgainComesInPages) {
  AddNodes(1196);  // 1200 in all
  server_.ResetRequestCounts();
  ASSERT_EQ(RunOnce({}), 0);
  EXPECT_EQ(Replicas(), 1200);
  EXPECT_EQ(server_.Requests().Count("GET /api/v1/nodes"), 1);

  auto propscaler = Start({"--healthz-port=0"});
  // Its watches may open before its nodes' list is counted: both waited.
  ASSERT_TRUE(WaitUntil(
      [&] {
        return server_.open_watches() >= 2 &&
               server_.Requests().Count("GET /api/v1/nodes") >= 2;
      },
      seconds(5)));
  const int64_t lists_before = server_.Requests().Count("GET /api/v1/nodes");
  EXPECT_EQ(lists_before, 2);
  AddNodesWhileTheHistoryExpires(2);
  ASSERT_TRUE(WaitForReplicas(1202, seconds(10))) << propscaler->Report();
  EXPECT_EQ(server_.Requests().Count("GET /api/v1/nodes") - lists_before, 3);
}

}  // namespace
}  // namespace propscaler::e2e
