// Replica mode's whole loop (reflectors, ConfigMap handling, scale writes,
// health) against the in-memory cluster in virtual time: hours of cluster
// life per test, and "nothing happened" said exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "app/replica_parts.h"
#include "common/clock.h"
#include "common/health_state.h"
#include "common/stop_signal.h"
#include "kube/controllers/event_recorder.h"
#include "memcluster/memory_cluster.h"
#include "memcluster/scenario_test.h"
#include "replicas/default_params.h"

namespace propscaler {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr char kNamespace[] = "kube-system";
constexpr char kConfigMap[] = "dns-autoscaler";

// One replica per `nodes_per_replica` schedulable nodes (the cores term is
// kept at 1 by a huge coresPerReplica).
std::map<std::string, std::string> PerNodes(int nodes_per_replica) {
  return {{"linear", "{\"coresPerReplica\":100000,\"nodesPerReplica\":" +
                         std::to_string(nodes_per_replica) + ",\"min\":1}"}};
}

class ReplicaScenarioTest : public memcluster::ScenarioTest {
 protected:
  void SetUp() override {
    options_.namespace_ = kNamespace;
    options_.configmap = kConfigMap;
    options_.targets = {{kube::ScaleTarget::Kind::kDeployment, "coredns"}};
    options_.poll_period = seconds(10);
    ASSERT_TRUE(sim::CreateWorkload(cluster_.store(), "deployment", kNamespace,
                                    "coredns", 1)
                    .ok());
  }

  void TearDown() override {
    if (loop_.joinable()) {
      stop_.Stop();
      WaitForExit(hours(1));
      loop_.join();
    }
  }

  void AddNodes(int first, int count) {
    for (int i = first; i < first + count; ++i) {
      sim::NodeShape shape;
      shape.name = "node-" + std::to_string(i);
      shape.index = i;
      ASSERT_TRUE(cluster_.AddNode(shape).ok());
    }
  }

  // `nodes` nodes, params of one replica per `nodes_per_replica`, started.
  void StartWith(int nodes, int nodes_per_replica) {
    AddNodes(1, nodes);
    ASSERT_TRUE(sim::PutConfigMap(cluster_.store(), kNamespace, kConfigMap,
                                  PerNodes(nodes_per_replica))
                    .ok());
    Start();
  }

  void Start() {
    autoscaler_ = std::make_unique<ReplicaParts>(
        ReplicaWatches::Clients::Of(&cluster_.client()),
        ReplicaAutoscaler::Clients::Of(&cluster_.client()), &clock_, options_,
        &health_, &events_, &board_);
    loop_ = clock_.StartThread([this] {
      exit_code_ = autoscaler_->Run(&stop_);
      exited_ = true;
      clock_.Notify();
    });
  }

  bool WaitForExit(Duration limit) {
    return clock_.WaitFor(limit, [this] { return exited_.load(); });
  }

  // What cluster-proportional-autoscaler's RBAC refuses propscaler: listing
  // and watching the target workloads (it grants get and update on their
  // scale), plus `more` calls.
  static memcluster::MemoryCluster::Fault CpaRbacTargets(
      std::vector<std::string> more = {}) {
    return [more](std::string_view call) {
      const bool refused =
          call == "list deployments" || call == "watch deployments" ||
          std::find(more.begin(), more.end(), call) != more.end();
      return refused ? Status(StatusCode::kPermissionDenied,
                              std::string(call) + ": HTTP 403: injected")
                     : Status::Ok();
    };
  }

  int64_t Replicas() {
    Result<int64_t> replicas =
        sim::GetReplicas(cluster_.store(), "deployment", kNamespace, "coredns");
    EXPECT_TRUE(replicas.ok()) << replicas.status().message();
    return replicas.ok() ? *replicas : -1;
  }

  ReplicaStatusBoard board_;
  AutoscalerOptions options_;
  std::unique_ptr<ReplicaParts> autoscaler_;
  std::thread loop_;
  std::atomic<bool> exited_{false};
  int exit_code_ = -1;
};

TEST_F(ReplicaScenarioTest, FollowsNodesAndParamsForHours) {
  StartWith(3, 1);
  clock_.SleepFor(milliseconds(1));
  EXPECT_EQ(Replicas(), 3);

  // A node added is acted on within tens of milliseconds (no cycle ran for
  // a while).
  clock_.SleepFor(minutes(5) + seconds(5));  // mid-way between polls
  AddNodes(4, 1);
  clock_.SleepFor(milliseconds(19));
  EXPECT_EQ(Replicas(), 3);
  clock_.SleepFor(milliseconds(2));
  EXPECT_EQ(Replicas(), 4);

  // A burst right after a cycle is taken together within the 250 ms window.
  ASSERT_TRUE(cluster_.SetNodeReady("node-2", false).ok());
  ASSERT_TRUE(sim::PatchNode(cluster_.store(), "node-3",
                             R"({"spec":{"unschedulable":true}})")
                  .ok());
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(Replicas(), 2);

  // An edit of the params is followed within a second.
  ASSERT_TRUE(
      sim::PutConfigMap(cluster_.store(), kNamespace, kConfigMap, PerNodes(2))
          .ok());
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 1);

  // A manual scale is undone within tens of milliseconds: the target is
  // watched.
  ASSERT_TRUE(
      sim::SetReplicas(cluster_.store(), "deployment", kNamespace, "coredns", 7)
          .ok());
  clock_.SleepFor(milliseconds(25));
  EXPECT_EQ(Replicas(), 1);

  // At rest: six hours, not one write and not one read: only the watches'
  // renewals (nodes, ConfigMap, target, HorizontalPodAutoscalers).
  const std::map<std::string, int64_t> before = cluster_.Calls();
  clock_.SleepFor(hours(6));
  for (const auto& [call, count] : cluster_.Calls()) {
    auto it = before.find(call);
    const int64_t made = count - (it == before.end() ? 0 : it->second);
    if (call.starts_with("watch ")) {
      EXPECT_LE(made, 6 * 12 + 1) << call;  // renewed every 5-10 minutes
    } else {
      EXPECT_EQ(made, 0) << call;
    }
  }
  EXPECT_EQ(Replicas(), 1);
  EXPECT_TRUE(health_.LoopAlive());
  ASSERT_TRUE(health_.LastCycle().has_value());
  EXPECT_TRUE(health_.LastCycle()->ok()) << health_.LastCycle()->message();
}

// A busy server answers propscaler's scale write 0.6 s after committing it;
// meanwhile another writer (kubectl scale, an HPA) sets 7, and the watch
// brings both changes before the answer. The older answer must not hide
// the newer change: the next cycle sees 7 and sets the count back.
TEST_F(ReplicaScenarioTest, AWriteAnsweredLateDoesNotHideANewerChange) {
  StartWith(3, 1);
  clock_.SleepFor(seconds(1));
  ASSERT_EQ(Replicas(), 3);
  std::atomic<bool> held{false};
  cluster_.SetAnswerHook([&](std::string_view call) {
    if (call != "update deployments/scale" || held.exchange(true)) return;
    clock_.SleepFor(milliseconds(300));
    ASSERT_TRUE(sim::SetReplicas(cluster_.store(), "deployment", kNamespace,
                                 "coredns", 7)
                    .ok());
    clock_.SleepFor(milliseconds(300));
  });
  AddNodes(4, 1);
  clock_.SleepFor(seconds(2));
  ASSERT_TRUE(held);
  EXPECT_EQ(Replicas(), 4);
  // And it stays so: nothing is left to undo.
  const int64_t writes = Calls("update deployments/scale");
  clock_.SleepFor(minutes(10));
  EXPECT_EQ(Replicas(), 4);
  EXPECT_EQ(Calls("update deployments/scale"), writes);
}

// A node registers NotReady and reports Ready 13 ms later: one cycle for
// both, done 20 ms after the first event, not one at once and another a
// coalescing window later.
TEST_F(ReplicaScenarioTest, ANodeAddedThenReadyIsOneQuickCycle) {
  StartWith(3, 1);
  clock_.SleepFor(minutes(1) + seconds(5));
  const int64_t writes = Calls("update deployments/scale");
  const int64_t reads = Calls("get deployments/scale");
  AddNodes(4, 1);
  ASSERT_TRUE(cluster_.SetNodeReady("node-4", false).ok());
  clock_.SleepFor(milliseconds(13));
  ASSERT_TRUE(cluster_.SetNodeReady("node-4", true).ok());
  clock_.SleepFor(milliseconds(8));
  EXPECT_EQ(Replicas(), 4);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Calls("update deployments/scale") - writes, 1);  // one cycle
  EXPECT_EQ(Calls("get deployments/scale") - reads, 0);      // watched
}

// cluster-proportional-autoscaler's RBAC: the target's scale is read with a
// GET each poll period, a manual scale undone at the next one, and the
// watch tried again every 5 minutes.
TEST_F(ReplicaScenarioTest, PollsTheScaleWhenRbacForbidsWatchingTheTarget) {
  cluster_.SetFault(CpaRbacTargets());
  StartWith(3, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 3);
  clock_.SleepFor(seconds(2));
  ASSERT_TRUE(
      sim::SetReplicas(cluster_.store(), "deployment", kNamespace, "coredns", 7)
          .ok());
  clock_.SleepFor(seconds(6));
  EXPECT_EQ(Replicas(), 7);
  clock_.SleepFor(seconds(2));
  EXPECT_EQ(Replicas(), 3);

  const int64_t reads = Calls("get deployments/scale");
  const int64_t tries = Calls("list deployments");
  clock_.SleepFor(hours(1));
  EXPECT_NEAR(Calls("get deployments/scale") - reads, 360, 2);
  EXPECT_NEAR(Calls("list deployments") - tries, 12, 1);
  EXPECT_EQ(Replicas(), 3);

  // Granted later: the next try watches, and reads stop.
  cluster_.SetFault(nullptr);
  clock_.SleepFor(minutes(5));
  const int64_t watched_reads = Calls("get deployments/scale");
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Calls("get deployments/scale"), watched_reads);
  ASSERT_TRUE(
      sim::SetReplicas(cluster_.store(), "deployment", kNamespace, "coredns", 9)
          .ok());
  clock_.SleepFor(milliseconds(25));
  EXPECT_EQ(Replicas(), 3);
}

// RBAC that lets it list HorizontalPodAutoscalers but not watch them (its
// own RBAC before it watched them): the check lists them every 5 minutes,
// and the watch is tried again as often.
TEST_F(ReplicaScenarioTest, ListsHpasEveryFiveMinutesWhenRbacForbidsWatching) {
  cluster_.SetFault([](std::string_view call) {
    return call == "watch horizontalpodautoscalers"
               ? Status(StatusCode::kPermissionDenied,
                        std::string(call) + ": HTTP 403: injected")
               : Status::Ok();
  });
  StartWith(3, 1);
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(Replicas(), 3);
  const int64_t lists = Calls("list horizontalpodautoscalers");
  const int64_t watches = Calls("watch horizontalpodautoscalers");
  clock_.SleepFor(hours(1));
  EXPECT_NEAR(Calls("list horizontalpodautoscalers") - lists, 24, 2);
  EXPECT_NEAR(Calls("watch horizontalpodautoscalers") - watches, 12, 1);
}

TEST_F(ReplicaScenarioTest, RelistsAfterTheHistoryIsCompacted) {
  StartWith(2, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 2);
  // The watches end (and cannot start again) while a node is added and the
  // history compacted: when they can, they get 410, list again and see it.
  cluster_.SetFault([](std::string_view call) {
    return call == "watch nodes" ? Status::Unavailable("watch: injected")
                                 : Status::Ok();
  });
  cluster_.store().DropWatches();
  AddNodes(3, 1);
  cluster_.store().CompactHistory();
  cluster_.SetFault(nullptr);
  clock_.SleepFor(seconds(2));
  EXPECT_EQ(Replicas(), 3);
  EXPECT_EQ(Calls("list nodes"), 2);
}

// A restarted API server refuses everything for a few seconds while its
// RBAC cache fills. Watches that were allowed before are tried again within
// seconds, not after the 5-minute period of a refusal RBAC means: a node
// added after the server is back is followed within seconds.
TEST_F(ReplicaScenarioTest, RefusalsRightAfterARestartPassWithinSeconds) {
  StartWith(3, 1);
  clock_.SleepFor(seconds(1));
  ASSERT_EQ(Replicas(), 3);
  const int64_t lists_before = Calls("list nodes");
  cluster_.SetFault([](std::string_view call) {
    return Status(StatusCode::kPermissionDenied,
                  std::string(call) + ": HTTP 403: RBAC cache filling");
  });
  cluster_.store().DropWatches();
  clock_.SleepFor(seconds(3));
  cluster_.SetFault(nullptr);
  // Watched again within a minute (retries 1, 2, 4 ... s apart): a node
  // added is followed within a second, and nothing is listed by cycles.
  clock_.SleepFor(minutes(1));
  const int64_t lists = Calls("list nodes");
  // The watch resumed where it was: nothing was listed again.
  EXPECT_EQ(lists, lists_before);
  AddNodes(4, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 4);
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(Calls("list nodes"), lists);
  EXPECT_TRUE(health_.LastCycle().has_value() && health_.LastCycle()->ok())
      << health_.LastCycle()->message();
}

// The same when the server went away before any watch was accepted (the
// first list was, the watch could not reach the server): a refusal right
// after the server could not be reached is a restart's too, tried again
// within seconds, not after 5 minutes of lists by cycles.
TEST_F(ReplicaScenarioTest, RefusalRightAfterAnOutagePassesWithinSeconds) {
  std::atomic<int> phase = 0;  // 0: watches unreachable, 1: refused, 2: up
  std::atomic<int> refused_watches = 0;
  cluster_.SetFault([&phase, &refused_watches](std::string_view call) {
    if (phase == 0 && call == "watch nodes") {
      return Status::Unavailable("watch nodes: connection refused");
    }
    if (phase == 1) {
      if (call == "watch nodes") ++refused_watches;
      return Status(StatusCode::kPermissionDenied,
                    std::string(call) + ": HTTP 403: RBAC cache filling");
    }
    return Status::Ok();
  });
  StartWith(3, 1);
  clock_.SleepFor(seconds(5));
  ASSERT_EQ(Replicas(), 3);
  phase = 1;
  clock_.SleepFor(seconds(10));
  phase = 2;
  // Refused again on the quick retries (1, 2 s after the first), not only
  // once.
  EXPECT_GE(refused_watches, 3);
  clock_.SleepFor(minutes(1));
  const int64_t lists = Calls("list nodes");
  AddNodes(4, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 4);
  clock_.SleepFor(minutes(2));
  // Watched: no cycle listed the nodes.
  EXPECT_EQ(Calls("list nodes"), lists);
}

TEST_F(ReplicaScenarioTest, HoldsReplicasThroughAnOutageAndRecovers) {
  StartWith(2, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 2);

  cluster_.SetFault([](std::string_view call) {
    return call == "update deployments/scale"
               ? Status::Unavailable("PUT scale: HTTP 503: injected")
               : Status::Ok();
  });
  AddNodes(3, 2);
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(Replicas(), 2);  // held: the scale cannot be written
  ASSERT_TRUE(health_.LastCycle().has_value());
  EXPECT_FALSE(health_.LastCycle()->ok());
  EXPECT_NE(health_.LastCycle()->message().find("injected"), std::string::npos);

  cluster_.SetFault(nullptr);
  clock_.SleepFor(seconds(10));
  EXPECT_EQ(Replicas(), 4);
  EXPECT_TRUE(health_.LastCycle()->ok()) << health_.LastCycle()->message();
}

TEST_F(ReplicaScenarioTest, ExitsAfterMaxSyncFailures) {
  options_.max_sync_failures = 3;
  cluster_.SetFault([](std::string_view call) {
    const bool down = call == "list deployments" ||
                      call == "watch deployments" ||
                      call == "get deployments/scale";
    return down ? Status::Unavailable(std::string(call) + ": HTTP 503")
                : Status::Ok();
  });
  const TimePoint start = clock_.Now();
  StartWith(1, 1);
  ASSERT_TRUE(WaitForExit(hours(1)));
  EXPECT_EQ(exit_code_, 1);
  // Three failed cycles (a cycle before the first lists counts as one),
  // at most a poll period apart.
  EXPECT_LE(clock_.Now() - start, seconds(20));
  loop_.join();
}

// Nodes that change while the ConfigMap's first list is still failing wake
// the loop, which finds the lists not yet in: that is a failed cycle once a
// poll period, not once a change (found on a loaded machine: three watches
// answering within milliseconds ended a --max-sync-failures=3 process
// before its first cycle).
TEST_F(ReplicaScenarioTest, ChangesBeforeTheFirstListsAreNotEachAFailure) {
  options_.max_sync_failures = 3;
  const TimePoint lists_fail_until = clock_.Now() + seconds(3);
  cluster_.SetFault([this, lists_fail_until](std::string_view call) {
    const bool down =
        call.ends_with(" configmaps") && clock_.Now() < lists_fail_until;
    return down ? Status::Unavailable(std::string(call) + ": HTTP 503")
                : Status::Ok();
  });
  StartWith(2, 1);
  for (int i = 0; i < 6; ++i) {
    AddNodes(10 + i, 1);
    clock_.SleepFor(milliseconds(200));
  }
  EXPECT_FALSE(WaitForExit(seconds(10)));
  EXPECT_EQ(Replicas(), 8);
}

TEST_F(ReplicaScenarioTest, PollsTheConfigMapWhenRbacForbidsWatchingIt) {
  // cluster-proportional-autoscaler's RBAC: get on the ConfigMap only.
  cluster_.SetFault([](std::string_view call) {
    return call == "list configmaps" || call == "watch configmaps"
               ? Status(StatusCode::kPermissionDenied,
                        "configmaps is forbidden: injected")
               : Status::Ok();
  });
  StartWith(4, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 4);
  // An edit is read at the next cycle, which is the poll period's.
  clock_.SleepFor(seconds(5));
  ASSERT_TRUE(
      sim::PutConfigMap(cluster_.store(), kNamespace, kConfigMap, PerNodes(2))
          .ok());
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 4);
  clock_.SleepFor(seconds(4));
  EXPECT_EQ(Replicas(), 2);
  // The watch is tried again every 5 minutes, not more.
  const int64_t tries = Calls("list configmaps");
  clock_.SleepFor(minutes(30));
  EXPECT_NEAR(Calls("list configmaps") - tries, 6, 1);
}

// --default-params changed, but RBAC refuses updating the ConfigMap (CPA's
// role has no update): the ConfigMap applies as it is, and the update is
// asked again every 5 minutes, not every cycle.
TEST_F(ReplicaScenarioTest, RefusedDefaultParamsUpdateIsAskedEveryFiveMinutes) {
  AddNodes(1, 4);
  kube::ConfigMap old;
  old.name = kConfigMap;
  old.namespace_ = kNamespace;
  old.data = PerNodes(2);
  old.annotations[kDefaultParamsHashAnnotation] = HashConfigMapData(old.data);
  ASSERT_TRUE(cluster_.client().CreateConfigMap(old).ok());
  cluster_.SetFault([](std::string_view call) {
    return call == "update configmaps"
               ? Status(StatusCode::kPermissionDenied,
                        "configmaps is forbidden: injected")
               : Status::Ok();
  });
  options_.default_params = PerNodes(1);
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 2);  // the ConfigMap as it is
  EXPECT_EQ(Calls("update configmaps"), 1);
  clock_.SleepFor(minutes(30));
  EXPECT_EQ(Replicas(), 2);
  // 180 cycles; the update asked at 0, 5, ... 30 minutes.
  EXPECT_NEAR(Calls("update configmaps"), 7, 1);
  // RBAC grants it: the next ask writes the new defaults.
  cluster_.SetFault(nullptr);
  clock_.SleepFor(minutes(5) + seconds(20));
  EXPECT_EQ(Replicas(), 4);
}

// An hour in which some calls fail with 503 while two nodes join: each
// failing call is retried with backoff, not in a hot loop; the replicas
// follow what the loop can still see (with the ConfigMap's watch down, the
// nodes with the last params; otherwise they stay); the cycle status names
// the failure; and within 30 s of the recovery the replicas are right and
// the status is ok again (the longest backoff, 10 s, then a poll period or,
// for a watch that has nothing to deliver, its first bookmark, 10 s here).
struct Outage {
  const char* name;
  std::vector<std::string> failing;  // call names; empty: every call
  int64_t replicas_during;
};

// Reflectors back off to 10 s (at most 360 tries an hour, plus the first
// ones); the scale is read and written at most once per 10 s poll period.
constexpr int64_t kMaxAttemptsPerHour = 370;

class ReplicaOutageTest : public ReplicaScenarioTest,
                          public ::testing::WithParamInterface<Outage> {};

TEST_P(ReplicaOutageTest, HoldsRetriesBoundedAndRecovers) {
  StartWith(2, 1);
  clock_.SleepFor(seconds(1));
  ASSERT_EQ(Replicas(), 2);
  const std::vector<std::string> failing = GetParam().failing;
  cluster_.SetFault([failing](std::string_view call) {
    const bool fails =
        failing.empty() ||
        std::find(failing.begin(), failing.end(), call) != failing.end();
    return fails ? Status::Unavailable(std::string(call) + ": HTTP 503")
                 : Status::Ok();
  });
  cluster_.store().DropWatches();  // so the watches must start again
  AddNodes(3, 2);
  const std::map<std::string, int64_t> before = cluster_.Calls();
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Replicas(), GetParam().replicas_during);
  ASSERT_TRUE(health_.LastCycle().has_value());
  EXPECT_NE(health_.LastCycle()->message().find("HTTP 503"), std::string::npos)
      << health_.LastCycle()->message();
  for (const auto& [call, count] : cluster_.Calls()) {
    auto it = before.find(call);
    const int64_t attempts = count - (it == before.end() ? 0 : it->second);
    EXPECT_LE(attempts, kMaxAttemptsPerHour) << call;
  }

  cluster_.SetFault(nullptr);
  clock_.SleepFor(seconds(30));
  EXPECT_EQ(Replicas(), 4);
  EXPECT_TRUE(health_.LastCycle()->ok()) << health_.LastCycle()->message();
}

INSTANTIATE_TEST_SUITE_P(
    Calls, ReplicaOutageTest,
    ::testing::Values(
        Outage{"NodeWatch", {"watch nodes", "list nodes"}, 2},
        Outage{"ConfigMapWatch", {"watch configmaps", "list configmaps"}, 4},
        Outage{
            "ScaleRead",
            {"watch deployments", "list deployments", "get deployments/scale"},
            2},
        Outage{"ScaleWrite", {"update deployments/scale"}, 2},
        Outage{"WholeApi", {}, 2}),
    [](const ::testing::TestParamInfo<Outage>& info) {
      return info.param.name;
    });

// --target-selector: every Deployment labelled k8s-app=kube-dns in the
// namespace is a target, from the moment it appears or starts to match;
// one that goes or stops matching is left alone; --target's stays.
TEST_F(ReplicaScenarioTest, TargetsBySelectorAreFollowedAsTheyAppearAndGo) {
  options_.target_selector = kube::TargetSelector{
      kube::ScaleTarget::Kind::kDeployment, "k8s-app=kube-dns"};
  const std::string deployments =
      "/apis/apps/v1/namespaces/" + std::string(kNamespace) + "/deployments";
  auto create = [&](const std::string& name, const std::string& label) {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(), deployments,
            R"({"metadata":{"name":")" + name + R"(","labels":{"k8s-app":")" +
                label +
                R"("}},"spec":{"replicas":1,"selector":{"matchLabels":{"app":")" +
                name + R"("}},"template":{"metadata":{"labels":{"app":")" +
                name +
                R"("}},"spec":{"containers":[{"name":"c","image":"i"}]}}}})")
            .ok());
  };
  auto replicas = [&](const std::string& name) {
    Result<int64_t> read =
        sim::GetReplicas(cluster_.store(), "deployment", kNamespace, name);
    return read.ok() ? *read : -1;
  };
  create("dns-a", "kube-dns");
  create("other", "web");
  StartWith(3, 1);
  clock_.SleepFor(milliseconds(10));
  EXPECT_EQ(Replicas(), 3);  // --target's
  EXPECT_EQ(replicas("dns-a"), 3);
  EXPECT_EQ(replicas("other"), 1);

  // A new matching Deployment is scaled within a second, not at the poll.
  clock_.SleepFor(seconds(3));
  create("dns-b", "kube-dns");
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(replicas("dns-b"), 3);

  // One that starts to match, likewise.
  ASSERT_TRUE(
      sim::PatchObject(cluster_.store(), deployments + "/other",
                       R"({"metadata":{"labels":{"k8s-app":"kube-dns"}}})")
          .ok());
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(replicas("other"), 3);

  // Another writer's change of a selected one is undone at once.
  ASSERT_TRUE(
      sim::SetReplicas(cluster_.store(), "deployment", kNamespace, "dns-b", 7)
          .ok());
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(replicas("dns-b"), 3);

  // One that stops matching is no longer scaled; the others follow a node.
  ASSERT_TRUE(sim::PatchObject(cluster_.store(), deployments + "/dns-a",
                               R"({"metadata":{"labels":{"k8s-app":null}}})")
                  .ok());
  clock_.SleepFor(milliseconds(300));
  AddNodes(4, 1);
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(replicas("dns-a"), 3);
  EXPECT_EQ(replicas("dns-b"), 4);
  EXPECT_EQ(replicas("other"), 4);
  EXPECT_EQ(Replicas(), 4);
  const ReplicaStatus status = board_.Snapshot();
  EXPECT_EQ(status.targets.count("deployment/dns-a"), 0u);
  EXPECT_EQ(status.targets.count("deployment/dns-b"), 1u);

  // One deleted is dropped without a failed cycle.
  ASSERT_TRUE(
      cluster_.store()
          .Delete(*sim::FindResourceType("Deployment"), kNamespace, "dns-b")
          .ok());
  clock_.SleepFor(milliseconds(300));
  AddNodes(5, 1);
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(replicas("other"), 5);
  EXPECT_EQ(Replicas(), 5);
  EXPECT_EQ(board_.Snapshot().last_cycle_error, "");
}

// With --target-selector alone, a matching Deployment with an HPA is
// reported as a conflict as soon as it is selected.
TEST_F(ReplicaScenarioTest, SelectedTargetWithAnHpaIsReportedAtOnce) {
  auto ConflictEvents = [this] {
    int found = 0;
    for (const std::string& event : sim::Events(cluster_.store(), kNamespace)) {
      found += event.find("ConflictingAutoscaler") != std::string::npos;
    }
    return found;
  };
  options_.targets.clear();
  options_.target_selector = kube::TargetSelector{
      kube::ScaleTarget::Kind::kDeployment, "k8s-app=kube-dns"};
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(),
          "/apis/autoscaling/v1/namespaces/" + std::string(kNamespace) +
              "/horizontalpodautoscalers",
          R"({"metadata":{"name":"dns-hpa"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"coredns"},"minReplicas":1,"maxReplicas":5}})")
          .ok());
  StartWith(3, 1);
  clock_.SleepFor(seconds(30));
  EXPECT_EQ(Replicas(), 1);  // not selected: untouched
  EXPECT_EQ(ConflictEvents(), 0);
  ASSERT_TRUE(
      sim::PatchObject(cluster_.store(),
                       "/apis/apps/v1/namespaces/" + std::string(kNamespace) +
                           "/deployments/coredns",
                       R"({"metadata":{"labels":{"k8s-app":"kube-dns"}}})")
          .ok());
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(Replicas(), 3);
  EXPECT_EQ(ConflictEvents(), 1);
}

// --hpa-floor: the computed count goes to the HPA's spec.minReplicas
// (capped at its maxReplicas), never to the target's replicas; other
// fields stay; another writer's edit between propscaler's read and write
// is read again and kept.
class HpaFloorScenarioTest : public ReplicaScenarioTest {
 protected:
  void SetUp() override {
    ReplicaScenarioTest::SetUp();
    options_.hpa_floor = AutoscalerOptions::HpaFloor{"dns", "v2"};
  }

  void CreateHpa(const std::string& target, int min, int max) {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(), kHpas,
            R"({"metadata":{"name":"dns"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":")" +
                target + R"("},"minReplicas":)" + std::to_string(min) +
                R"(,"maxReplicas":)" + std::to_string(max) +
                R"(,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}]}})")
            .ok());
  }
  std::string Hpa() {
    return sim::GetObject(cluster_.store(), kHpas + std::string("/dns"))
        .value_or("");
  }
  int64_t MinReplicas() {
    const std::string hpa = Hpa();
    const size_t at = hpa.find("\"minReplicas\":");
    return at == std::string::npos ? -1 : std::stoll(hpa.substr(at + 14));
  }

  static constexpr char kHpas[] =
      "/apis/autoscaling/v2/namespaces/kube-system/horizontalpodautoscalers";
};

TEST_F(HpaFloorScenarioTest, WritesTheFloorNotTheReplicas) {
  CreateHpa("coredns", 1, 6);
  StartWith(3, 1);
  clock_.SleepFor(milliseconds(10));
  EXPECT_EQ(MinReplicas(), 3);
  AddNodes(4, 1);
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(MinReplicas(), 4);

  // Above maxReplicas: capped there.
  AddNodes(5, 4);
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(MinReplicas(), 6);

  // Another writer lowers the floor: set back within a second.
  ASSERT_TRUE(sim::PatchObject(cluster_.store(), kHpas + std::string("/dns"),
                               R"({"spec":{"minReplicas":2}})")
                  .ok());
  clock_.SleepFor(milliseconds(300));
  EXPECT_EQ(MinReplicas(), 6);

  // Another writer raises maxReplicas just before propscaler's write: its
  // patch meets a 409, reads again and writes on top of the new maxReplicas.
  std::atomic<int> raced{0};
  cluster_.SetFault([&](std::string_view call) {
    if (call == "patch horizontalpodautoscalers" && raced++ == 0) {
      EXPECT_TRUE(sim::PatchObject(cluster_.store(),
                                   kHpas + std::string("/dns"),
                                   R"({"spec":{"maxReplicas":20}})")
                      .ok());
    }
    return Status::Ok();
  });
  ASSERT_TRUE(sim::PatchObject(cluster_.store(), kHpas + std::string("/dns"),
                               R"({"spec":{"maxReplicas":7}})")
                  .ok());
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(raced, 2);
  EXPECT_EQ(MinReplicas(), 8);
  EXPECT_NE(Hpa().find("\"maxReplicas\":20"), std::string::npos) << Hpa();
  EXPECT_NE(Hpa().find("\"averageUtilization\":70"), std::string::npos)
      << Hpa();
  // The target's replicas were never written.
  EXPECT_EQ(Replicas(), 1);
  EXPECT_EQ(Calls("update deployments/scale"), 0);
  EXPECT_EQ(Calls("patch deployments/scale"), 0);
  EXPECT_EQ(board_.Snapshot().last_cycle_error, "");

  // Nothing more is written at rest.
  const int64_t patches = Calls("patch horizontalpodautoscalers");
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Calls("patch horizontalpodautoscalers"), patches);
}

TEST_F(HpaFloorScenarioTest, AMissingOrElsewhereHpaLeavesEverythingSaying) {
  StartWith(3, 1);
  clock_.SleepFor(seconds(30));
  EXPECT_EQ(Replicas(), 1);
  EXPECT_NE(board_.Snapshot().last_cycle_error.find(
                "horizontalpodautoscaler kube-system/dns (--hpa-floor) not "
                "found"),
            std::string::npos)
      << board_.Snapshot().last_cycle_error;

  CreateHpa("web", 1, 5);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Replicas(), 1);
  EXPECT_EQ(MinReplicas(), 1);
  EXPECT_NE(board_.Snapshot().last_cycle_error.find(
                "scales Deployment web, which is not a target "
                "(deployment/coredns)"),
            std::string::npos)
      << board_.Snapshot().last_cycle_error;

  ASSERT_TRUE(
      sim::PatchObject(cluster_.store(), kHpas + std::string("/dns"),
                       R"({"spec":{"scaleTargetRef":{"name":"coredns"}}})")
          .ok());
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(MinReplicas(), 3);
  EXPECT_EQ(Replicas(), 1);
  EXPECT_EQ(board_.Snapshot().last_cycle_error, "");
}

// --hpa-floor-auto: HPAs listed only after the first cycle (their first
// three lists refused, so the retries' backoff takes over a second) are
// acted on when they arrive, not at the next poll.
TEST_F(HpaFloorScenarioTest, AutoActsWhenTheHpasArriveAfterTheFirstCycle) {
  options_.hpa_floor =
      AutoscalerOptions::HpaFloor{.version = "v2", .automatic = true};
  std::atomic<int> lists{0};
  cluster_.SetFault([&](std::string_view call) {
    if (call == "list horizontalpodautoscalers" && lists++ < 3) {
      return Status::Unavailable("list horizontalpodautoscalers: HTTP 503");
    }
    return Status::Ok();
  });
  CreateHpa("coredns", 1, 10);
  StartWith(3, 1);
  clock_.SleepFor(seconds(5));  // the list's retry comes within its backoff
  EXPECT_GE(lists.load(), 4);
  EXPECT_EQ(MinReplicas(), 3);
  EXPECT_EQ(Replicas(), 1);
}

// --hpa-floor-auto: the target one HPA scales gets the floor on it; one no
// HPA scales is scaled; one two HPAs scale is left alone, the cycle saying
// why, and only those two are reported as conflicts.
TEST_F(HpaFloorScenarioTest, AutoFloorsEachTargetItsOneHpa) {
  options_.hpa_floor =
      AutoscalerOptions::HpaFloor{.version = "v2", .automatic = true};
  options_.targets = {{kube::ScaleTarget::Kind::kDeployment, "coredns"},
                      {kube::ScaleTarget::Kind::kDeployment, "web"},
                      {kube::ScaleTarget::Kind::kDeployment, "api"}};
  for (const char* name : {"web", "api"}) {
    ASSERT_TRUE(
        sim::CreateWorkload(cluster_.store(), "deployment", kNamespace, name, 1)
            .ok());
  }
  CreateHpa("coredns", 1, 10);
  for (const char* name : {"web-cpu", "web-mem"}) {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(), kHpas,
            R"({"metadata":{"name":")" + std::string(name) +
                R"("},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":1,"maxReplicas":5}})")
            .ok());
  }
  StartWith(3, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(MinReplicas(), 3);
  EXPECT_EQ(Replicas(), 1);
  auto replicas = [&](const std::string& name) {
    Result<int64_t> read =
        sim::GetReplicas(cluster_.store(), "deployment", kNamespace, name);
    return read.ok() ? *read : -1;
  };
  EXPECT_EQ(replicas("api"), 3);
  EXPECT_EQ(replicas("web"), 1);
  EXPECT_NE(board_.Snapshot().last_cycle_error.find(
                "deployment/web is scaled by 2 HorizontalPodAutoscalers "
                "(web-cpu, web-mem)"),
            std::string::npos)
      << board_.Snapshot().last_cycle_error;
  std::vector<std::string> conflicts;
  for (const std::string& event : sim::Events(cluster_.store(), kNamespace)) {
    if (event.find("ConflictingAutoscaler") != std::string::npos) {
      conflicts.push_back(event);
    }
  }
  ASSERT_EQ(conflicts.size(), 2u);
  for (const std::string& event : conflicts) {
    EXPECT_NE(event.find("also scales deployment/web"), std::string::npos)
        << event;
  }

  // The second HPA goes: web's one HPA takes the floor.
  ASSERT_TRUE(cluster_.store()
                  .Delete(*sim::FindResourceType("horizontalpodautoscalers"),
                          kNamespace, "web-mem")
                  .ok());
  AddNodes(4, 1);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(MinReplicas(), 4);
  EXPECT_EQ(replicas("api"), 4);
  EXPECT_EQ(replicas("web"), 1);
  EXPECT_NE(sim::GetObject(cluster_.store(), kHpas + std::string("/web-cpu"))
                .value_or("")
                .find("\"minReplicas\":4"),
            std::string::npos);
  EXPECT_EQ(board_.Snapshot().last_cycle_error, "");
}

}  // namespace
}  // namespace propscaler
