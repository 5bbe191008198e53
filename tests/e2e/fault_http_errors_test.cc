// 500, 503 and 504 on each API call propscaler makes: the node list, the node
// watch, the ConfigMap and the scale subresource. While the fault lasts the
// replicas stay where they were (no scaling from partial data), the process
// keeps running, /last-poll shows the error, and requests come at a bounded
// rate; once it ends, the replicas converge to what the cluster now needs.
#include "e2e/fault_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

enum class Call { kNodeList, kNodeWatch, kConfigMap, kScale };

struct ErrorCase {
  Call call;
  int code;
};

std::string Name(const ::testing::TestParamInfo<ErrorCase>& info) {
  static const char* kCalls[] = {"NodeList", "NodeWatch", "ConfigMap", "Scale"};
  return std::string(kCalls[static_cast<int>(info.param.call)]) +
         std::to_string(info.param.code);
}

class HttpErrorTest : public FaultTest,
                      public ::testing::WithParamInterface<ErrorCase> {
 protected:
  // Turns the fault on and changes the cluster so that the faulted call is
  // needed; returns the replicas the change calls for and the request
  // counted against the faulted path.
  int64_t InjectAndChange(std::string* faulted_request) {
    const int code = GetParam().code;
    switch (GetParam().call) {
      case Call::kNodeList:
        // Watches end with 410, so every reconnect has to list.
        server_.AddFault(Fault("WATCH", kNodesPath, 410));
        server_.AddFault(Fault("GET", kNodesPath, code));
        *faulted_request = std::string("GET ") + kNodesPath;
        server_.DropWatches();
        AddNodes(2);
        return 6;
      case Call::kNodeWatch:
        server_.AddFault(Fault("WATCH", kNodesPath, code));
        *faulted_request = std::string("WATCH ") + kNodesPath;
        server_.DropWatches();
        AddNodes(2);
        return 6;
      case Call::kConfigMap:
        server_.AddFault(Fault("", kConfigMapsPath, code));
        *faulted_request = std::string("WATCH ") + kConfigMapsPath;
        server_.DropWatches();
        EXPECT_TRUE(server_
                        .PutConfigMap(kNamespace, kConfigMap,
                                      {{"linear", R"({"nodesPerReplica":2})"}})
                        .ok());
        return 2;
      case Call::kScale:
        server_.AddFault(Fault("", kScalePath, code));
        *faulted_request = std::string("GET ") + kScalePath;
        AddNodes(2);
        return 6;
    }
    return -1;
  }
};

TEST_P(HttpErrorTest, HoldsReplicasReportsAndConverges) {
  auto propscaler = StartConverged();
  const auto start = Clock::now();
  std::string faulted_request;
  int64_t want;
  {
    ReplicaSampler sampler(&server_);
    want = InjectAndChange(&faulted_request);
    EXPECT_TRUE(WaitForLastPoll(500, "HTTP " + std::to_string(GetParam().code),
                                seconds(4)))
        << LastPollBody() << propscaler->Report();
    EXPECT_EQ(sampler.min(), 4);
    EXPECT_EQ(sampler.max(), 4);
  }
  ASSERT_TRUE(propscaler->Running()) << propscaler->Report();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();
  // Backoff, not a hot loop: a few attempts a second at most.
  EXPECT_LE(RequestsSince(start, faulted_request), 4 * elapsed + 4);
  EXPECT_EQ(RequestsSince(start, std::string("PATCH ") + kScalePath), 0);

  server_.ClearFaults();
  const auto cleared = Clock::now();
  ASSERT_TRUE(WaitForReplicas(want, seconds(6))) << propscaler->Report();
  // Two poll periods, plus the reflector's backoff reached by now.
  EXPECT_LE(Clock::now() - cleared, 2 * kPollPeriod + seconds(2));
  EXPECT_TRUE(WaitForLastPoll(200, "ok", seconds(3))) << LastPollBody();
}

INSTANTIATE_TEST_SUITE_P(
    Calls, HttpErrorTest,
    ::testing::Values(
        ErrorCase{Call::kNodeList, 500}, ErrorCase{Call::kNodeList, 503},
        ErrorCase{Call::kNodeList, 504}, ErrorCase{Call::kNodeWatch, 500},
        ErrorCase{Call::kNodeWatch, 503}, ErrorCase{Call::kNodeWatch, 504},
        ErrorCase{Call::kConfigMap, 500}, ErrorCase{Call::kConfigMap, 503},
        ErrorCase{Call::kConfigMap, 504}, ErrorCase{Call::kScale, 500},
        ErrorCase{Call::kScale, 503}, ErrorCase{Call::kScale, 504}),
    Name);

}  // namespace
}  // namespace propscaler::e2e
