// Two replicas of replica mode with --leader-elect on a real Lease, under
// deploy/replicas/rbac.yaml: one acts and the standby says on /status who
// does; the leader killed, the standby takes over within the lease
// duration; the leader paused (SIGSTOP) past its lease writes nothing from
// its stale view when it wakes.
#include <httplib.h>
#include <signal.h>

#include <chrono>

#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

using e2e::CountOf;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kDeployRbac[] = "deploy/replicas/rbac.yaml";
// The Lease deploy/replicas names and grants (its ConfigMap's name).
constexpr char kLease[] = "coredns-autoscaler";

struct Replica {
  std::unique_ptr<e2e::Process> process;
  int port = 0;
  std::string identity;  // from its start-up line
};

class LeaderElectionRealServerTest : public RealServerTest {
 protected:
  void SetUp() override {
    RealServerTest::SetUp();
    GrantRbac("coredns-autoscaler", {kDeployRbac});
    AddNodes(0, 3);
    ASSERT_TRUE(CreateDeployment(cluster(), ns(), kTarget, 1).ok());
    Status put =
        PutConfigMap(cluster(), ns(), kConfigMap, "linear", kPerNodeParams);
    ASSERT_TRUE(put.ok()) << put.message();
  }

  // A replica electing on the Lease with short timers (lease 3 s, renew
  // deadline 2 s, retry 500 ms).
  Replica Start() {
    Replica replica;
    replica.port = e2e::FreePort();
    replica.process = StartPropscaler(
        {"--leader-elect",
         std::string("--leader-elect-resource-name=") + kLease,
         "--leader-elect-lease-duration=3s", "--leader-elect-renew-deadline=2s",
         "--leader-elect-retry-period=500ms", "--poll-period-seconds=60",
         "--healthz-port=" + std::to_string(replica.port)});
    const std::string marker =
        "leader election on lease " + ns() + "/" + kLease + " as ";
    EXPECT_TRUE(WaitForLog(marker, *replica.process));
    const std::string log = replica.process->Output();
    const size_t at = log.find(marker);
    if (at != std::string::npos) {
      const size_t from = at + marker.size();
      replica.identity = log.substr(from, log.find(':', from) - from);
    }
    return replica;
  }

  std::string Holder() {
    Result<std::string> holder = LeaseHolder(cluster(), ns(), kLease);
    return holder.ok() ? *holder : "";
  }

  // Waits until `identity` holds the Lease; returns how long that took.
  std::optional<milliseconds> WaitForHolder(const std::string& identity,
                                            std::chrono::seconds timeout) {
    const auto start = std::chrono::steady_clock::now();
    if (!e2e::WaitUntil([&] { return Holder() == identity; }, timeout)) {
      return std::nullopt;
    }
    return std::chrono::duration_cast<milliseconds>(
        std::chrono::steady_clock::now() - start);
  }

  static std::string Get(int port, const std::string& path, int* status) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(5, 0);
    httplib::Result result = client.Get(path);
    *status = result ? result->status : 0;
    return result ? result->body : "";
  }
};

TEST_F(LeaderElectionRealServerTest, OneActsTheStandbyTakesOverWhenItDies) {
  Replica first = Start();
  ASSERT_TRUE(WaitForHolder(first.identity, seconds(20)))
      << first.process->Output();
  Replica second = Start();
  ASSERT_TRUE(WaitForReplicas(3, *first.process));
  AddNodes(3, 1);
  ASSERT_TRUE(WaitForReplicas(4, *first.process, seconds(5)));

  // The standby serves /healthz and says who leads.
  int status = 0;
  Get(second.port, "/healthz", &status);
  EXPECT_EQ(status, 200);
  std::string page = Get(second.port, "/status", &status);
  EXPECT_EQ(status, 200);
  EXPECT_NE(page.find("standby: " + first.identity + " leads"),
            std::string::npos)
      << page;
  // Neither ok nor failed: waiting, in its own colour, with the reason.
  EXPECT_NE(page.find("<span class=wait>waiting: standby: another replica "
                      "holds the lease</span>"),
            std::string::npos)
      << page;
  page = Get(first.port, "/status", &status);
  EXPECT_NE(page.find(">leader</span>"), std::string::npos) << page;
  EXPECT_NE(page.find("<span class=ok>ok</span>"), std::string::npos) << page;
  EXPECT_EQ(
      CountOf(second.process->Output(), "scaling deployment/coredns from"), 0)
      << second.process->Output();

  // The leader dies: the standby holds the Lease within the lease duration
  // (3 s, plus its retry period) and acts on what it watched meanwhile.
  first.process->Signal(SIGKILL);
  AddNodes(4, 1);
  const std::optional<milliseconds> takeover =
      WaitForHolder(second.identity, seconds(10));
  ASSERT_TRUE(takeover.has_value()) << second.process->Output();
  EXPECT_LE(takeover->count(), 5000) << second.process->Output();
  ASSERT_TRUE(WaitForReplicas(5, *second.process, seconds(3)));
  const std::string log = second.process->Output();
  EXPECT_EQ(CountOf(log, "is forbidden: User"), 0) << log;
  EXPECT_TRUE(NoKindRefusedMoreThanTwice()) << log;
  EXPECT_TRUE(Refusals().empty()) << log;
}

TEST_F(LeaderElectionRealServerTest, APausedLeaderDoesNotWriteWhenItWakes) {
  Replica first = Start();
  ASSERT_TRUE(WaitForHolder(first.identity, seconds(20)))
      << first.process->Output();
  Replica second = Start();
  ASSERT_TRUE(WaitForReplicas(3, *first.process));
  const int scaled_before =
      CountOf(first.process->Output(), "scaling deployment/coredns from");

  // Paused past its lease: the standby takes over and follows two more
  // nodes, which the paused one has not seen.
  first.process->Signal(SIGSTOP);
  ASSERT_TRUE(WaitForHolder(second.identity, seconds(10)))
      << second.process->Output();
  AddNodes(3, 2);
  ASSERT_TRUE(WaitForReplicas(5, *second.process, seconds(5)));

  // It wakes with a view of three nodes and an expired lease: it writes
  // nothing, however long it runs, and the target stays the new leader's.
  first.process->Signal(SIGCONT);
  EXPECT_FALSE(e2e::WaitUntil(
      [&] {
        Result<int64_t> replicas = DeploymentReplicas(cluster(), ns(), kTarget);
        return !replicas.ok() || *replicas != 5;
      },
      seconds(5)));
  EXPECT_EQ(CountOf(first.process->Output(), "scaling deployment/coredns from"),
            scaled_before)
      << first.process->Output();
  EXPECT_EQ(Holder(), second.identity);
  EXPECT_TRUE(first.process->Running()) << first.process->Output();
  int status = 0;
  const std::string page = Get(first.port, "/status", &status);
  EXPECT_NE(page.find("standby: " + second.identity + " leads"),
            std::string::npos)
      << page;
}

}  // namespace
}  // namespace propscaler::envtest
