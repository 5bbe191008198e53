// A HorizontalPodAutoscaler on the same target: a warning in the log and a
// ConflictingAutoscaler Event on the target; scaling goes on. Without RBAC
// for HPAs the check turns itself off after one warning.
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

constexpr char kHpaPath[] =
    "/apis/autoscaling/v1/namespaces/kube-system/horizontalpodautoscalers";

std::string HpaJson(const std::string& name, const std::string& kind,
                    const std::string& target) {
  return R"({"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",)"
         R"("metadata":{"name":")" +
         name +
         R"(","namespace":"kube-system"},"spec":{"scaleTargetRef":)"
         R"({"apiVersion":"apps/v1","kind":")" +
         kind + R"(","name":")" + target +
         R"("},"minReplicas":1,"maxReplicas":10}})";
}

class HpaConflictTest : public ReplicaClusterTest {
 protected:
  void SetUp() override { StartServerWithPerNodeParams(); }

  // spec.minReplicas of HPA kube-system/dns, read through autoscaling/v2;
  // -1 when absent.
  int64_t DnsMinReplicas() const {
    const std::optional<std::string> hpa = server_.GetObject(
        "/apis/autoscaling/v2/namespaces/kube-system/horizontalpodautoscalers/"
        "dns");
    const size_t at = hpa ? hpa->find("\"minReplicas\":") : std::string::npos;
    return at == std::string::npos ? -1 : std::stoll(hpa->substr(at + 14));
  }

  int ConflictEvents() const {
    int count = 0;
    for (const std::string& event : server_.Events(kNamespace)) {
      if (event.find("\"ConflictingAutoscaler\"") != std::string::npos) {
        ++count;
      }
    }
    return count;
  }
};

TEST_F(HpaConflictTest, AnHpaOnTheTargetIsReported) {
  ASSERT_TRUE(
      server_.CreateObject(kHpaPath, HpaJson("dns", "Deployment", "coredns"))
          .ok());
  ASSERT_TRUE(
      server_.CreateObject(kHpaPath, HpaJson("web", "Deployment", "web")).ok());
  std::string output;
  ASSERT_EQ(RunOnce({}, &output), 0) << output;
  EXPECT_EQ(Replicas(), 4);
  EXPECT_NE(output.find("HorizontalPodAutoscaler kube-system/dns also scales "
                        "deployment/coredns"),
            std::string::npos)
      << output;
  EXPECT_EQ(output.find("kube-system/web"), std::string::npos) << output;
  ASSERT_EQ(ConflictEvents(), 1);
  for (const std::string& event : server_.Events(kNamespace)) {
    if (event.find("ConflictingAutoscaler") == std::string::npos) continue;
    EXPECT_NE(event.find("\"type\":\"Warning\""), std::string::npos) << event;
    EXPECT_NE(event.find("\"name\":\"coredns\""), std::string::npos) << event;
  }
}

// The HPAs are watched: one created while propscaler runs is reported at
// the next cycle, and they are not listed again.
TEST_F(HpaConflictTest, AnHpaCreatedLaterIsReportedAtTheNextCycle) {
  auto propscaler = Start({"--healthz-port=0", "--poll-period-seconds=1"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(
      server_.CreateObject(kHpaPath, HpaJson("dns", "Deployment", "coredns"))
          .ok());
  EXPECT_TRUE(WaitUntil([&] { return ConflictEvents() == 1; }, seconds(5)))
      << propscaler->Report();
  EXPECT_LE(server_.Requests().Count(std::string("GET ") + kHpaPath), 1)
      << propscaler->Output();
}

TEST_F(HpaConflictTest, NoHpaNoWarning) {
  std::string output;
  ASSERT_EQ(RunOnce({}, &output), 0) << output;
  EXPECT_EQ(output.find("HorizontalPodAutoscaler"), std::string::npos)
      << output;
  EXPECT_EQ(ConflictEvents(), 0);
}

TEST_F(HpaConflictTest, ForbiddenTurnsTheCheckOffAndScalingGoesOn) {
  server_.AddFault(
      {.method = "GET", .path_prefix = kHpaPath, .code = 403, .count = -1});
  auto propscaler = Start({"--healthz-port=0", "--poll-period-seconds=1"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(3))) << propscaler->Report();
  const std::string output = propscaler->Output();
  const std::string warning = "cannot list horizontalpodautoscalers";
  const size_t first = output.find(warning);
  ASSERT_NE(first, std::string::npos) << output;
  EXPECT_EQ(output.find(warning, first + 1), std::string::npos) << output;
  EXPECT_EQ(server_.Requests().Count(std::string("GET ") + kHpaPath), 1)
      << output;
}

// --hpa-floor through the binary: the server serves autoscaling/v2, which
// it is written through; the count goes to the HPA's minReplicas, within a
// second of a node's arrival, and the Deployment's replicas are left to
// the HPA; the HPA named is not reported as a conflict.
TEST_F(HpaConflictTest, HpaFloorSetsMinReplicasThroughV2) {
  ASSERT_TRUE(
      server_.CreateObject(kHpaPath, HpaJson("dns", "Deployment", "coredns"))
          .ok());
  const int64_t replicas = Replicas();
  auto propscaler = Start({"--healthz-port=0", "--hpa-floor=dns"});
  ASSERT_TRUE(WaitUntil([&] { return DnsMinReplicas() == 4; }, seconds(30)))
      << propscaler->Report();
  AddNodes(1);
  ASSERT_TRUE(WaitUntil([&] { return DnsMinReplicas() == 5; }, seconds(2)))
      << propscaler->Report();
  EXPECT_EQ(Replicas(), replicas);
  const std::string log = propscaler->Output();
  EXPECT_NE(log.find("through autoscaling/v2 (--hpa-floor)"), std::string::npos)
      << log;
  EXPECT_NE(log.find("minReplicas from 4 to 5"), std::string::npos) << log;
  EXPECT_EQ(log.find("also scales"), std::string::npos) << log;
  EXPECT_EQ(ConflictEvents(), 0);
  int floor_events = 0;
  for (const std::string& event : server_.Events(kNamespace)) {
    floor_events += event.find("\"SetMinReplicas\"") != std::string::npos;
  }
  EXPECT_GE(floor_events, 1);
}

// --once with either floor flag: one cycle sets the floor.
TEST_F(HpaConflictTest, HpaFloorWithOnce) {
  ASSERT_TRUE(
      server_.CreateObject(kHpaPath, HpaJson("dns", "Deployment", "coredns"))
          .ok());
  const int64_t replicas = Replicas();
  std::string output;
  ASSERT_EQ(RunOnce({"--hpa-floor=dns"}, &output), 0) << output;
  EXPECT_EQ(DnsMinReplicas(), 4) << output;
  AddNodes(1);
  ASSERT_EQ(RunOnce({"--hpa-floor-auto"}, &output), 0) << output;
  EXPECT_EQ(DnsMinReplicas(), 5) << output;
  EXPECT_EQ(Replicas(), replicas);
}

}  // namespace
}  // namespace propscaler::e2e
