// 409 Conflict on every write propscaler makes (ConfigMap create and update,
// scale update, and its patch fallback when update is forbidden), 410 at the
// end of a watch, a whole-API outage, and
// --max-sync-failures.
#include <thread>

#include "e2e/fault_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

constexpr char kDefaults[] = R"({"linear":{"nodesPerReplica":1}})";
constexpr char kNewDefaults[] = R"({"linear":{"nodesPerReplica":2}})";

class WriteFaultTest : public FaultTest {
 protected:
  bool WaitForConfigMap(const std::string& linear) {
    return WaitUntil(
        [&] {
          auto data = server_.ConfigMapData(kNamespace, kConfigMap);
          return data && data->count("linear") && data->at("linear") == linear;
        },
        seconds(6));
  }
};

TEST_F(WriteFaultTest, ScaleUpdateConflictIsReadAgainAndRetried) {
  auto propscaler = StartConverged();
  server_.ResetRequestCounts();
  server_.AddFault(Fault("PUT", kScalePath, 409, 2));
  AddNodes(1);
  // Two 409s, then the third PUT of the same cycle: the first under the
  // watched copy's resourceVersion, the others each after a new GET.
  ASSERT_TRUE(WaitForReplicas(5, kPollPeriod)) << propscaler->Report();
  EXPECT_EQ(server_.Requests().Count(std::string("PUT ") + kScalePath), 3);
  EXPECT_EQ(server_.Requests().Count(std::string("GET ") + kScalePath), 2);
}

// A busy server answers propscaler's scale write 0.6 s after committing it;
// meanwhile another writer sets 7, which the watch brings first. The late
// answer must not hide that newer change: propscaler sets the count back
// within a second of the answer, not never.
TEST_F(WriteFaultTest, AScaleWriteAnsweredLateDoesNotHideANewerChange) {
  auto propscaler = StartConverged();
  sim::FaultRule late = Fault("PUT", kScalePath, 0, 1);
  late.answer_delay = std::chrono::milliseconds(600);
  server_.AddFault(late);
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(2))) << propscaler->Report();
  ASSERT_TRUE(server_.SetReplicas("deployment", kNamespace, "coredns", 7).ok());
  ASSERT_TRUE(WaitForReplicas(5, seconds(3))) << propscaler->Report();
  EXPECT_TRUE(server_.Faults().empty());  // the late answer was given
  // And it stays: nothing is left to undo.
  std::this_thread::sleep_for(kPollPeriod * 2);
  EXPECT_EQ(*server_.GetReplicas("deployment", kNamespace, "coredns"), 5);
}

TEST_F(WriteFaultTest, ScaleConflictsThatOutlastACycleAreRetriedNextCycle) {
  auto propscaler = StartConverged();
  server_.AddFault(Fault("PUT", kScalePath, 409, 3));
  AddNodes(1);
  EXPECT_TRUE(WaitForLastPoll(500, "HTTP 409", seconds(3))) << LastPollBody();
  ASSERT_TRUE(WaitForReplicas(5, 3 * kPollPeriod + seconds(1)))
      << propscaler->Report();
  EXPECT_TRUE(WaitForLastPoll(200, "ok", seconds(3))) << LastPollBody();
}

TEST_F(WriteFaultTest, ForbiddenScaleUpdateFallsBackToPatchOnce) {
  auto propscaler = StartConverged();
  server_.ResetRequestCounts();
  server_.AddFault(Fault("PUT", kScalePath, 403, 1000));
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(6))) << propscaler->Report();
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(6, seconds(6))) << propscaler->Report();
  // The 403 is met once; from then on the scale is patched.
  EXPECT_EQ(server_.Requests().Count(std::string("PUT ") + kScalePath), 1);
  EXPECT_EQ(server_.Requests().Count(std::string("PATCH ") + kScalePath), 2);
  EXPECT_EQ(CountOf(propscaler->Output(), "writing replicas with patch"), 1)
      << propscaler->Output();
}

TEST_F(WriteFaultTest, ConfigMapCreateConflictIsRetried) {
  ASSERT_EQ(ApiDelete(std::string(kConfigMapsPath) + "/" + kConfigMap)->status,
            200);
  server_.AddFault(Fault("POST", kConfigMapsPath, 409, 2));
  auto propscaler =
      StartConverged(4, {std::string("--default-params=") + kDefaults});
  EXPECT_TRUE(WaitForConfigMap(R"({"nodesPerReplica":1})"))
      << propscaler->Report();
  EXPECT_GE(server_.Requests().Count(std::string("POST ") + kConfigMapsPath),
            3);
}

TEST_F(WriteFaultTest, ConfigMapUpdateConflictIsRetried) {
  ASSERT_EQ(ApiDelete(std::string(kConfigMapsPath) + "/" + kConfigMap)->status,
            200);
  {
    auto first =
        StartConverged(4, {std::string("--default-params=") + kDefaults});
  }
  const std::string path = std::string(kConfigMapsPath) + "/" + kConfigMap;
  server_.AddFault(Fault("PUT", path, 409, 1));
  auto second =
      StartConverged(2, {std::string("--default-params=") + kNewDefaults});
  EXPECT_TRUE(WaitForConfigMap(R"({"nodesPerReplica":2})")) << second->Report();
  EXPECT_GE(server_.Requests().Count("PUT " + path), 2);
}

TEST_F(WriteFaultTest, WatchEndingWith410ListsAgain) {
  auto propscaler = StartConverged();
  const auto start = Clock::now();
  server_.AddFault(Fault("WATCH", kNodesPath, 410, 1));
  server_.DropWatches();
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(3))) << propscaler->Report();
  EXPECT_GE(RequestsSince(start, std::string("GET ") + kNodesPath), 1);
  EXPECT_TRUE(WaitForLastPoll(200, "ok", seconds(3))) << LastPollBody();
}

// How often each call is retried through an outage, and that the replicas
// hold for its whole length, is said exactly in virtual time
// (ReplicaOutageTest in tests/unit/app/replica_scenario_test.cc); here the real
// binary reports a whole-API outage over HTTP and recovers from it.
TEST_F(WriteFaultTest, WholeApiOutageIsReportedAndRecovered) {
  auto propscaler = StartConverged();
  ReplicaSampler sampler(&server_);
  server_.AddFault(Fault("", "/api", 503));
  server_.DropWatches();
  AddNodes(2);
  EXPECT_TRUE(WaitForLastPoll(500, "HTTP 503", seconds(5))) << LastPollBody();
  EXPECT_EQ(sampler.max(), 4);
  EXPECT_TRUE(propscaler->Running());
  server_.ClearFaults();
  EXPECT_TRUE(WaitForReplicas(6, seconds(8))) << propscaler->Report();
}

TEST_F(WriteFaultTest, MaxSyncFailuresExitsAfterThatManyFailedCycles) {
  auto propscaler = StartConverged(4, {"--max-sync-failures=3"});
  server_.AddFault(Fault("", kScalePath, 503));
  AddNodes(1);
  std::optional<int> code = propscaler->WaitForExit(seconds(8));
  ASSERT_TRUE(code.has_value()) << propscaler->Report();
  EXPECT_EQ(*code, 1);
  EXPECT_NE(propscaler->Output().find("--max-sync-failures"),
            std::string::npos);
  EXPECT_EQ(Replicas(), 4);
}

}  // namespace
}  // namespace propscaler::e2e
