// Two replicas of replica mode with --leader-elect against the in-memory
// cluster in virtual time: one acts; the other takes over within the lease
// duration when the first dies; a leader that stops renewing (a paused
// process) stops writing at its renew deadline, before anyone may take
// over, and does not write again until it holds the lease.
//
// The two count different nodes (b only the m5.large ones), so the target
// says which one wrote last.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "app/replica_parts.h"
#include "common/clock.h"
#include "common/health_state.h"
#include "common/stop_signal.h"
#include "kube/controllers/leader_election.h"
#include "memcluster/memory_cluster.h"
#include "memcluster/scenario_test.h"

namespace propscaler {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr char kNamespace[] = "kube-system";
constexpr char kConfigMap[] = "dns-autoscaler";
constexpr char kLease[] = "propscaler-replicas-dns-autoscaler";

// One replica per node.
const std::map<std::string, std::string> kPerNode = {
    {"linear", R"({"coresPerReplica":100000,"nodesPerReplica":1})"}};

// One process: its elector and its loop, each stoppable alone (a process
// killed stops both; one paused past its lease renews nothing, then runs on).
struct Candidate {
  Candidate(const Clock* clock, const kube::Client* client,
            const std::string& identity, const std::string& node_selector)
      : elector(
            client,
            {.namespace_ = kNamespace, .name = kLease, .identity = identity},
            clock),
        elector_stop(clock),
        loop_stop(clock),
        health(clock, minutes(2)) {
    AutoscalerOptions options;
    options.namespace_ = kNamespace;
    options.configmap = kConfigMap;
    options.targets = {{kube::ScaleTarget::Kind::kDeployment, "coredns"}};
    options.node_selector = node_selector;
    options.may_act = [this] { return elector.IsLeader(); };
    autoscaler = std::make_unique<ReplicaParts>(
        ReplicaWatches::Clients::Of(client),
        ReplicaAutoscaler::Clients::Of(client), clock, options, &health,
        nullptr, &board);
    elector_thread = clock->StartThread([this] { elector.Run(&elector_stop); });
    loop_thread = clock->StartThread([this, clock] {
      autoscaler->Run(&loop_stop);
      exited = true;
      clock->Notify();
    });
  }

  // Killed: both threads stop, and are joined once the loop has exited.
  void Kill(const Clock* clock) {
    elector_stop.Stop();
    loop_stop.Stop();
    clock->WaitFor(hours(1), [this] { return exited.load(); });
    if (elector_thread.joinable()) elector_thread.join();
    if (loop_thread.joinable()) loop_thread.join();
  }

  kube::LeaderElector elector;
  StopSignal elector_stop;
  StopSignal loop_stop;
  HealthState health;
  ReplicaStatusBoard board;
  std::unique_ptr<ReplicaParts> autoscaler;
  std::thread elector_thread;
  std::thread loop_thread;
  std::atomic<bool> exited{false};
};

class ReplicaLeaderElectionTest : public memcluster::ScenarioTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(sim::CreateWorkload(cluster_.store(), "deployment", kNamespace,
                                    "coredns", 1)
                    .ok());
    ASSERT_TRUE(
        sim::PutConfigMap(cluster_.store(), kNamespace, kConfigMap, kPerNode)
            .ok());
    // Three nodes; b counts only the two m5.large ones.
    for (int i = 1; i <= 3; ++i) AddNode(i, i == 1 ? "m5.xlarge" : "m5.large");
  }

  void TearDown() override {
    for (Candidate* candidate : {a_.get(), b_.get()}) {
      if (candidate != nullptr) candidate->Kill(&clock_);
    }
  }

  void AddNode(int index, const std::string& instance_type) {
    sim::NodeShape shape;
    shape.name = "node-" + std::to_string(index);
    shape.index = index;
    shape.instance_type = instance_type;
    ASSERT_TRUE(cluster_.AddNode(shape).ok());
  }

  // a counts every node, b only the m5.large ones; a starts first.
  void StartBoth() {
    a_ = std::make_unique<Candidate>(&clock_, &cluster_.client(), "a", "");
    clock_.SleepFor(milliseconds(100));
    b_ = std::make_unique<Candidate>(
        &clock_, &cluster_.client(), "b",
        "node.kubernetes.io/instance-type=m5.large");
  }

  int64_t Replicas() {
    Result<int64_t> replicas =
        sim::GetReplicas(cluster_.store(), "deployment", kNamespace, "coredns");
    EXPECT_TRUE(replicas.ok()) << replicas.status().message();
    return replicas.ok() ? *replicas : -1;
  }

  std::string Holder() {
    Result<kube::Lease> lease = cluster_.client().GetLease(kNamespace, kLease);
    return lease.ok() ? lease->holder : "";
  }

  std::unique_ptr<Candidate> a_;
  std::unique_ptr<Candidate> b_;
};

TEST_F(ReplicaLeaderElectionTest, OneActsAndTheStandbyNeverWrites) {
  StartBoth();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Holder(), "a");
  EXPECT_EQ(Replicas(), 3);  // a's count
  // Another writer, then node changes: a answers, b never does.
  ASSERT_TRUE(
      sim::SetReplicas(cluster_.store(), "deployment", kNamespace, "coredns", 7)
          .ok());
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 3);
  AddNode(4, "m5.large");
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 4);
  const int64_t writes = Calls("update deployments/scale");
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Replicas(), 4);
  EXPECT_EQ(Calls("update deployments/scale"), writes);
  EXPECT_EQ(Holder(), "a");
  // The standby is healthy: its watches are warm, it only does not act.
  for (Candidate* candidate : {a_.get(), b_.get()}) {
    EXPECT_TRUE(candidate->health.LoopAlive());
    ASSERT_TRUE(candidate->health.LastCycle().has_value());
    EXPECT_TRUE(candidate->health.LastCycle()->ok())
        << candidate->health.LastCycle()->message();
  }
}

TEST_F(ReplicaLeaderElectionTest, TheStandbyTakesOverWithinTheLeaseDuration) {
  StartBoth();
  clock_.SleepFor(seconds(1));
  ASSERT_EQ(Replicas(), 3);
  // a dies (both its threads), and a node joins meanwhile: b would make
  // it 3 (m5.large nodes), a 4.
  const TimePoint killed = clock_.Now();
  a_->Kill(&clock_);
  AddNode(4, "m5.large");
  // b may not take over before the lease duration (15 s) has passed since
  // it saw the lease renewed, at most a retry period (2 s) before the kill.
  clock_.SleepFor(killed + seconds(12) - clock_.Now());
  EXPECT_EQ(Holder(), "a");
  // It does within lease duration + two retry periods, and acts at once on
  // what it has watched all along.
  clock_.SleepFor(killed + seconds(19) + milliseconds(100) - clock_.Now());
  EXPECT_EQ(Holder(), "b");
  EXPECT_EQ(Replicas(), 3);
  AddNode(5, "m5.large");
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 4);
}

TEST_F(ReplicaLeaderElectionTest, ALeaderPastItsLeaseDoesNotWriteUntilItLeads) {
  StartBoth();
  clock_.SleepFor(seconds(1));
  ASSERT_EQ(Replicas(), 3);
  // a stops renewing (paused) while its loop goes on.
  a_->elector_stop.Stop();
  clock_.SleepFor(milliseconds(10));
  a_->elector_thread.join();
  const TimePoint paused = clock_.Now();
  // Past the renew deadline (10 s) and before the takeover (15 s): nobody
  // writes, though a still sees every change.
  clock_.SleepFor(seconds(10) + milliseconds(100));
  EXPECT_FALSE(a_->elector.IsLeader());
  AddNode(4, "m5.xlarge");
  clock_.SleepFor(seconds(2));
  EXPECT_EQ(Replicas(), 3);
  // b leads: its count (2 m5.large) stands, and a's (4) is never written
  // though a's loop keeps cycling with the change it saw.
  clock_.SleepFor(paused + seconds(19) + milliseconds(100) - clock_.Now());
  EXPECT_EQ(Holder(), "b");
  EXPECT_EQ(Replicas(), 2);
  const int64_t writes = Calls("update deployments/scale");
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Replicas(), 2);
  EXPECT_EQ(Calls("update deployments/scale"), writes);
  EXPECT_TRUE(a_->health.LoopAlive());
  EXPECT_TRUE(a_->health.LastCycle()->ok());
}

}  // namespace
}  // namespace propscaler
