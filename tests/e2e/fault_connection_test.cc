// Connections that hang, are cut in the middle of a list or a watch event,
// and a server that goes away and comes back on the same port.
#include "e2e/fault_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

// Longer than the test's deadlines: only the idle timeout (1 s) ends it.
constexpr auto kHang = milliseconds(6000);

sim::FaultRule Hang(const std::string& method, const std::string& path) {
  sim::FaultRule rule = Fault(method, path, 0, 1);
  rule.delay = kHang;
  return rule;
}

sim::FaultRule Cut(const std::string& method, const std::string& path,
                   int after_bytes, int skip = 0) {
  sim::FaultRule rule = Fault(method, path, 0, 1);
  rule.cut_after_bytes = after_bytes;
  rule.skip = skip;
  return rule;
}

class ConnectionFaultTest : public FaultTest {};

TEST_F(ConnectionFaultTest, QuietWatchWithBookmarksIsKept) {
  auto propscaler = StartConverged();
  ASSERT_TRUE(
      WaitUntil([&] { return server_.open_watches() >= 2; }, seconds(3)));
  const auto start = Clock::now();
  std::this_thread::sleep_for(seconds(3));  // three idle timeouts
  EXPECT_EQ(RequestsSince(start, std::string("WATCH ") + kNodesPath), 0);
}

TEST_F(ConnectionFaultTest, HungWatchIsAbandonedAndRestarted) {
  auto propscaler = StartConverged();
  server_.AddFault(Hang("WATCH", kNodesPath));
  const auto start = Clock::now();
  server_.DropWatches();
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(4))) << propscaler->Report();
  EXPECT_LT(Clock::now() - start, kHang);
  EXPECT_NE(propscaler->Output().find("idle timeout"), std::string::npos);
}

TEST_F(ConnectionFaultTest, HungScaleCallTimesOutAndTheNextCycleScales) {
  auto propscaler = StartConverged();
  // The scale is read from the target's watch; the write is what hangs.
  server_.AddFault(Hang("PUT", kScalePath));
  const auto start = Clock::now();
  AddNodes(1);
  EXPECT_TRUE(WaitForLastPoll(500, "idle timeout", seconds(4)))
      << LastPollBody();
  ASSERT_TRUE(WaitForReplicas(5, seconds(4))) << propscaler->Report();
  EXPECT_LT(Clock::now() - start, kHang);
}

TEST_F(ConnectionFaultTest, HungFirstNodeListIsAbandonedAndListedAgain) {
  server_.AddFault(Hang("GET", kNodesPath));
  const auto start = Clock::now();
  auto propscaler = StartConverged(4);
  EXPECT_LT(Clock::now() - start, kHang);
  EXPECT_NE(propscaler->Output().find("idle timeout"), std::string::npos)
      << propscaler->Report();
}

TEST_F(ConnectionFaultTest, HungConfigMapListIsAbandonedAndListedAgain) {
  server_.AddFault(Hang("GET", kConfigMapsPath));
  const auto start = Clock::now();
  auto propscaler = StartConverged(4);
  EXPECT_LT(Clock::now() - start, kHang);
  EXPECT_NE(propscaler->Output().find("idle timeout"), std::string::npos)
      << propscaler->Report();
}

TEST_F(ConnectionFaultTest, ListCutOnTheSecondPageIsDroppedWhole) {
  AddNodes(1196);  // 1200: three pages
  auto propscaler = StartConverged(1200);
  const auto start = Clock::now();
  {
    ReplicaSampler sampler(&server_);
    // The watch ends with 410; the relist's first page arrives whole, the
    // second is cut after 3000 bytes.
    server_.AddFault(Fault("WATCH", kNodesPath, 410, 1));
    server_.AddFault(Cut("GET", kNodesPath, 3000, /*skip=*/1));
    server_.DropWatches();
    // Page one, page two (cut), then the three pages of the retry.
    ASSERT_TRUE(WaitUntil(
        [&] {
          return RequestsSince(start, std::string("GET ") + kNodesPath) >= 5;
        },
        seconds(5)))
        << propscaler->Report();
    std::this_thread::sleep_for(2 * kPollPeriod);
    EXPECT_EQ(sampler.min(), 1200);
    EXPECT_EQ(sampler.max(), 1200);
  }
  EXPECT_EQ(RequestsSince(start, std::string("PATCH ") + kScalePath), 0);
  ASSERT_TRUE(server_.DeleteNode("node-0").ok());
  EXPECT_TRUE(WaitForReplicas(1199, seconds(3))) << propscaler->Report();
}

TEST_F(ConnectionFaultTest, WatchCutMidEventResumesWithoutLosingEvents) {
  auto propscaler = StartConverged();
  const auto start = Clock::now();
  ReplicaSampler sampler(&server_);
  // 40 bytes: inside the first line, whatever it is.
  server_.AddFault(Cut("WATCH", kNodesPath, 40));
  server_.DropWatches();
  AddNodes(2);
  ASSERT_TRUE(WaitForReplicas(6, seconds(4))) << propscaler->Report();
  EXPECT_GE(RequestsSince(start, std::string("WATCH ") + kNodesPath), 2);
  EXPECT_GE(sampler.min(), 4);
}

TEST_F(ConnectionFaultTest, ServerGoneAndBackOnTheSamePort) {
  auto propscaler = StartConverged();
  const int port = server_.port();
  const int64_t last_version = server_.resource_version();
  server_.Stop();
  EXPECT_TRUE(WaitForLastPoll(500, "onnect", seconds(4))) << LastPollBody();
  ASSERT_TRUE(propscaler->Running()) << propscaler->Report();

  // A restarted API server has the same objects and carries on from the
  // same resourceVersion (etcd keeps both); then two nodes join.
  sim::FakeApiServer restarted;
  sim::FakeApiServerOptions options;
  options.port = port;
  options.bearer_token = kToken;
  options.bookmark_interval = std::chrono::milliseconds(300);
  ASSERT_TRUE(restarted.Start(options).ok());
  ASSERT_TRUE(
      restarted.CreateWorkload("deployment", kNamespace, "coredns", 4).ok());
  ASSERT_TRUE(
      restarted
          .PutConfigMap(kNamespace, kConfigMap, {{"linear", kPerNodeParams}})
          .ok());
  for (int i = 0; i < 4; ++i) {
    const std::string name = "node-" + std::to_string(i);
    ASSERT_TRUE(restarted.CreateNode(NodeJson(name, "4")).ok());
  }
  for (int i = 0; i < 10000 && restarted.resource_version() <= last_version;
       ++i) {
    ASSERT_TRUE(restarted.PatchNode("node-0", R"({"metadata":{}})").ok());
  }
  ASSERT_TRUE(restarted.CreateNode(NodeJson("node-4", "4")).ok());
  ASSERT_TRUE(restarted.CreateNode(NodeJson("node-5", "4")).ok());
  EXPECT_TRUE(WaitUntil(
      [&] {
        Result<int64_t> replicas =
            restarted.GetReplicas("deployment", kNamespace, "coredns");
        return replicas.ok() && *replicas == 6;
      },
      seconds(15)))
      << propscaler->Report();
  EXPECT_TRUE(WaitForLastPoll(200, "ok", seconds(3))) << LastPollBody();
}

}  // namespace
}  // namespace propscaler::e2e
