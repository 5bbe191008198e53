// The removal queue's contract (nodescale/run/removal_queue.h) on its own,
// against the in-memory cluster and the kwok provider: every node of a set
// tainted before any pod is evicted; a node deleted only when no pod that
// needs eviction is left; all or nothing; a refusal or a pod past the grace
// period keeps the node, untainted; stale taints cleared. Each pass is
// handed the cluster as the store now has it.
#include "nodescale/run/removal_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apiserver/resources.h"
#include "apiserver/store_objects.h"
#include "common/clock.h"
#include "memcluster/memory_cluster.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/provider/kwok.h"
#include "unit/nodescale/run/store_lists.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::seconds;

class RemovalQueueTest : public ::testing::Test {
 protected:
  RemovalQueueTest()
      : cluster_(&clock_),
        provider_(&cluster_.client(), &clock_, {.namespace_ = "kube-system"}),
        reporter_(nullptr, &board_, &cluster_.client(), "kube-system"),
        queue_(
            &cluster_.client(), &provider_, &reporter_, &clock_,
            [] { return true; }, seconds(60)) {
    NodeGroup group;
    group.name = "pool";
    groups_.push_back(group);
  }

  void AddNode(const std::string& name) {
    ASSERT_TRUE(
        cluster_
            .AddNode({.name = name,
                      .extra_labels = {{std::string(kNodeGroupLabel), "pool"}}})
            .ok());
  }
  void AddPod(const std::string& name, const std::string& node) {
    ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                  "/api/v1/namespaces/default/pods",
                                  sim::PodJson(name, "1", node))
                    .ok());
  }

  // A finalizer nobody removes: evicted, the pod stays (terminating).
  void Linger(const std::string& pod) {
    rapidjson::Document linger;
    linger.Parse(R"({"metadata":{"finalizers":["propscaler.io/test"]}})");
    ASSERT_TRUE(
        cluster_.store()
            .Patch(*sim::FindResourceType("pods"), "default", pod, linger)
            .ok());
  }

  // The cluster as the store has it now.
  ClusterView View() {
    nodes_ = testing_util::StoreNodes(cluster_.store());
    pods_ = testing_util::StorePods(cluster_.store());
    return {clock_.Now(), &nodes_, &pods_, &groups_, &group_of_};
  }

  bool Tainted(const std::string& node) {
    return sim::GetObject(cluster_.store(), "/api/v1/nodes/" + node)
               .value_or("")
               .find(std::string(kToBeDeletedTaint)) != std::string::npos;
  }
  bool Exists(const std::string& node) {
    return sim::GetObject(cluster_.store(), "/api/v1/nodes/" + node)
        .has_value();
  }
  int64_t Evictions() { return cluster_.Calls()["create pods/eviction"]; }
  // Cluster Autoscaler's count of nodes removed for `reason`.
  static double CaScaledDown(const std::string& reason) {
    return GlobalMetrics().Value("cluster_autoscaler_scaled_down_nodes_total",
                                 {{"reason", reason},
                                  {"gpu_resource_name", ""},
                                  {"gpu_name", ""},
                                  {"dra_drivers", ""}});
  }
  static double CaEvicted(const std::string& result) {
    return GlobalMetrics().Value("cluster_autoscaler_evicted_pods_total",
                                 {{"eviction_result", result}});
  }

  VirtualClock clock_;
  memcluster::MemoryCluster cluster_;
  KwokProvider provider_;
  NodeScaleStatusBoard board_;
  NodeScaleReporter reporter_;
  RemovalQueue queue_;
  std::vector<NodeGroup> groups_;
  GroupOfNode group_of_ = [](const NodeState& node) {
    return std::string(NodeGroupOf(node));
  };
  SharedNodes nodes_;
  SharedPods pods_;
};

// Both nodes of the set are tainted before the first pod is evicted; the
// empty one goes at once, the busy one once its evicted pod has gone.
TEST_F(RemovalQueueTest, TaintsTheWholeSetFirstAndDeletesOnlyEmptyNodes) {
  AddNode("pool-a");
  AddNode("pool-b");
  AddPod("web-0", "pool-b");
  const double empty_before = CaScaledDown("empty");
  const double drained_before = CaScaledDown("underutilized");
  const double evicted_before = CaEvicted("succeeded");
  bool first = true;
  bool both_tainted_at_first_eviction = false;
  cluster_.SetAnswerHook([&](std::string_view call) {
    if (call == "create pods/eviction" && first) {
      first = false;
      both_tainted_at_first_eviction = Tainted("pool-a") && Tainted("pool-b");
    }
  });
  const RemovalQueue::Progress started =
      queue_.Start({{"pool-a", "pool"}, {"pool-b", "pool"}}, View(),
                   /*all_or_nothing=*/true);
  EXPECT_TRUE(both_tainted_at_first_eviction);
  EXPECT_EQ(started.deleted, std::vector<std::string>{"pool-a of pool"});
  EXPECT_FALSE(Exists("pool-a"));
  EXPECT_TRUE(Exists("pool-b"));
  EXPECT_TRUE(queue_.Draining());
  EXPECT_TRUE(queue_.Removing("pool-b"));

  // web-0 was evicted (and is gone from the store): the next pass deletes.
  const RemovalQueue::Progress next = queue_.Advance(View());
  EXPECT_EQ(next.deleted, std::vector<std::string>{"pool-b of pool"});
  EXPECT_FALSE(Exists("pool-b"));
  EXPECT_FALSE(queue_.Draining());
  // As Cluster Autoscaler counts them: one removed empty, one drained.
  EXPECT_EQ(CaScaledDown("empty") - empty_before, 1);
  EXPECT_EQ(CaScaledDown("underutilized") - drained_before, 1);
  EXPECT_EQ(CaEvicted("succeeded") - evicted_before, 1);
}

// All or nothing: a node that cannot be tainted (deleted since the view
// was read) fails the set: the other is untainted and no pod is evicted.
TEST_F(RemovalQueueTest, ANodeThatCannotBeTaintedFailsTheWholeSet) {
  AddNode("pool-a");
  AddNode("pool-gone");
  AddPod("web-0", "pool-a");
  const ClusterView view = View();
  ASSERT_TRUE(sim::DeleteNode(cluster_.store(), "pool-gone").ok());
  const RemovalQueue::Progress progress =
      queue_.Start({{"pool-a", "pool"}, {"pool-gone", "pool"}}, view,
                   /*all_or_nothing=*/true);
  EXPECT_TRUE(progress.deleted.empty());
  EXPECT_EQ(progress.failed, 2);
  EXPECT_FALSE(Tainted("pool-a"));
  EXPECT_TRUE(Exists("pool-a"));
  EXPECT_EQ(Evictions(), 0);
  EXPECT_FALSE(queue_.Draining());
}

// An eviction a PodDisruptionBudget refuses (429) stops that node's
// removal: it is untainted and stays, and nothing is deleted.
TEST_F(RemovalQueueTest, ARefusedEvictionKeepsTheNodeUntainted) {
  AddNode("pool-a");
  AddPod("web-0", "pool-a");
  cluster_.SetFault([](std::string_view call) {
    return call == "create pods/eviction"
               ? Status::Unavailable(
                     "HTTP 429: Cannot evict pod as it would violate the "
                     "pod's disruption budget.")
               : Status::Ok();
  });
  const RemovalQueue::Progress progress =
      queue_.Start({{"pool-a", "pool"}}, View(), /*all_or_nothing=*/false);
  EXPECT_EQ(progress.failed, 1);
  EXPECT_TRUE(progress.deleted.empty());
  EXPECT_TRUE(Exists("pool-a"));
  EXPECT_FALSE(Tainted("pool-a"));
  EXPECT_FALSE(queue_.Removing("pool-a"));
}

// A pod that outlives --max-graceful-termination-sec (a finalizer keeps
// it) keeps its node: untainted at the deadline, never deleted.
TEST_F(RemovalQueueTest, APodPastTheGracePeriodKeepsItsNode) {
  AddNode("pool-a");
  AddPod("web-0", "pool-a");
  Linger("web-0");
  queue_.Start({{"pool-a", "pool"}}, View(), /*all_or_nothing=*/false);
  EXPECT_TRUE(queue_.Draining());
  clock_.Advance(seconds(30));
  EXPECT_EQ(queue_.Advance(View()).failed, 0);
  EXPECT_TRUE(Tainted("pool-a"));
  clock_.Advance(seconds(31));
  const RemovalQueue::Progress late = queue_.Advance(View());
  EXPECT_EQ(late.failed, 1);
  EXPECT_TRUE(late.deleted.empty());
  EXPECT_TRUE(Exists("pool-a"));
  EXPECT_FALSE(Tainted("pool-a"));
  EXPECT_FALSE(queue_.Draining());
}

// A ToBeDeleted taint on a node the queue is not removing (left by a
// restart or a lost lease) is taken off; one it is removing stays.
TEST_F(RemovalQueueTest, ClearsStaleTaintsAndKeepsItsOwn) {
  AddNode("pool-a");
  AddNode("pool-b");
  AddPod("web-0", "pool-b");
  ASSERT_TRUE(sim::PatchNode(cluster_.store(), "pool-a",
                             R"({"spec":{"taints":[{"key":")" +
                                 std::string(kToBeDeletedTaint) +
                                 R"(","value":"1","effect":"NoSchedule"}]}})")
                  .ok());
  Linger("web-0");
  queue_.Start({{"pool-b", "pool"}}, View(), /*all_or_nothing=*/false);
  ASSERT_TRUE(Tainted("pool-a"));
  ASSERT_TRUE(Tainted("pool-b"));
  queue_.ClearStaleTaints(View());
  EXPECT_FALSE(Tainted("pool-a"));
  EXPECT_TRUE(queue_.Removing("pool-b"));
  EXPECT_TRUE(Tainted("pool-b"));
}

}  // namespace
}  // namespace propscaler::nodescale
