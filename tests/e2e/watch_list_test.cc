// WatchList (Kubernetes 1.27+, on by default from 1.32): where the server
// has it, each collection is read with one watch that starts with every
// object and a bookmark ending the initial events, and never listed; where
// it refuses one (kube-apiserver 1.20 answers 422), lists in pages. A stream
// cut before its initial events end is dropped whole and started again.
#include "e2e/fault_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

class WatchListTest : public ReplicaClusterTest {
 protected:
  void StartWith(sim::WatchListSupport support) {
    sim::FakeApiServerOptions options;
    options.watch_list = support;
    StartServerWithPerNodeParams(options);
  }
  int64_t Count(const std::string& request) {
    return server_.Requests().Count(request);
  }
};

TEST_F(WatchListTest, ReadsEveryCollectionWithOneWatchAndNoList) {
  StartWith(sim::WatchListSupport::kSupported);
  AddNodes(1196);  // 1200: more than a list page
  server_.ResetRequestCounts();
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(1200)) << propscaler->Report();
  AddNodes(2);
  ASSERT_TRUE(WaitForReplicas(1202, seconds(3))) << propscaler->Report();
  EXPECT_EQ(Count("GET /api/v1/nodes"), 0);
  EXPECT_EQ(Count("WATCH /api/v1/nodes"), 1);
  EXPECT_EQ(Count("GET /api/v1/namespaces/kube-system/configmaps"), 0);
  EXPECT_EQ(Count("GET /apis/apps/v1/namespaces/kube-system/deployments"), 0);
  EXPECT_EQ(propscaler->Output().find("WatchList"), std::string::npos)
      << propscaler->Output();
}

TEST_F(WatchListTest, ListsWhereTheServerRefusesIt) {
  StartWith(sim::WatchListSupport::kBefore);
  AddNodes(1196);
  server_.ResetRequestCounts();
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(1200)) << propscaler->Report();
  AddNodes(2);
  ASSERT_TRUE(WaitForReplicas(1202, seconds(3))) << propscaler->Report();
  // One refused WatchList per collection (nodes, ConfigMap, target, HPAs),
  // then lists (the nodes' one request of resourceVersion 0, whole from the
  // watch cache) and plain watches.
  EXPECT_EQ(Count("GET /api/v1/nodes"), 1);
  const std::string log = propscaler->Output();
  EXPECT_EQ(CountOf(log, "refused a WatchList"), 4) << log;
  EXPECT_NE(log.find("resourceVersionMatch is forbidden for watch"),
            std::string::npos)
      << log;
}

TEST_F(WatchListTest, StreamCutBeforeItsInitialEventsEndIsDroppedWhole) {
  StartWith(sim::WatchListSupport::kSupported);
  AddNodes(1196);
  sim::FaultRule cut = Fault("WATCH", "/api/v1/nodes", 0, 1);
  cut.cut_after_bytes = 200000;  // some hundred nodes in
  server_.AddFault(cut);
  const auto start = Clock::now();
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(1200)) << propscaler->Report();
  // Never a count from the part that arrived: the first scale is the
  // whole cluster's.
  EXPECT_EQ(CountOf(propscaler->Output(), "scaling deployment/coredns from"), 1)
      << propscaler->Output();
  EXPECT_EQ(server_.Requests().Count("WATCH /api/v1/nodes"), 2);
  EXPECT_LT(Clock::now() - start, seconds(10));
}

}  // namespace
}  // namespace propscaler::e2e
