// Nodes on their way out, from the ToBeDeleted taint to the provider's
// delete, as Karpenter's termination controller and Cluster Autoscaler's
// drain remove them:
//   1. every node of a set (a disruption command, a bulk of empty nodes) is
//      tainted ToBeDeleted and cordoned before any pod is evicted, so that
//      a pod evicted from one is not rebound to another of the same set;
//   2. on every pass, each pod on a draining node that needs eviction (not
//      a DaemonSet, mirror or terminated pod) is evicted through the
//      Eviction API, whenever it was bound there: before the drain started
//      or after;
//   3. a node is handed to the provider only when no such pod is left on
//      it; one whose pods outlive --max-graceful-termination-sec, or whose
//      eviction a PodDisruptionBudget refuses, is untainted and stays.
// Nothing here decides which nodes go; the executor hands them in
// (run/action_executor.h: its drain stage).
#ifndef PROPSCALER_NODESCALE_RUN_REMOVAL_QUEUE_H_
#define PROPSCALER_NODESCALE_RUN_REMOVAL_QUEUE_H_

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "kube/client/client.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/scale_down/drain.h"
#include "nodescale/plan/simulation/snapshot.h"
#include "nodescale/provider/provider.h"
#include "nodescale/report/node_scale_reporter.h"
#include "nodescale/run/cluster_view.h"

namespace propscaler::nodescale {

class RemovalQueue {
 public:
  using Target = RemovalTarget;
  // What a call did, for the loop's timers and status.
  using Progress = RemovalProgress;

  // Nodes whose pods are evicted at once, each node's one after another
  // (so a refusal still stops that node's drain at its first pod).
  static constexpr size_t kNodesEvictedAtOnce = 16;

  RemovalQueue(const kube::NodeActionClient* api, Provider* provider,
               const NodeScaleReporter* reporter, const Clock* clock,
               std::function<bool()> may_act,
               Duration max_graceful_termination);

  // Starts removing `targets` as one set: each is tainted and cordoned, then
  // a first pass (Advance) evicts and deletes. With `all_or_nothing` (a
  // disruption command) a node that cannot be tainted fails the whole set:
  // the others are untainted and no pod is evicted.
  Progress Start(const std::vector<Target>& targets, const ClusterView& view,
                 bool all_or_nothing);
  // One pass over the draining nodes: evicts the pods that need it, deletes
  // the nodes none is left on, fails those past their deadline or refused.
  Progress Advance(const ClusterView& view);
  // A node carries ToBeDeleted only while it is being removed: the taint is
  // taken off every other node (left by a restart, a lost lease, a failed
  // provider call or a failed untaint). Deleted nodes that have gone are
  // forgotten.
  void ClearStaleTaints(const ClusterView& view);

  // Whether some node waits for its pods to go.
  bool Draining() const { return !draining_.empty(); }
  // Draining, or handed to the provider and still registered.
  bool Removing(const std::string& node) const {
    return draining_.contains(node) || deleting_.contains(node);
  }
  // The nodes Removing() is true of.
  std::set<std::string> RemovingNodes() const {
    std::set<std::string> nodes = deleting_;
    for (const auto& [node, drain] : draining_) nodes.insert(node);
    return nodes;
  }
  // What scale-down's choice must leave alone.
  RemovalsInFlight InFlight() const {
    return {draining_.empty() ? "" : draining_.begin()->first, deleting_};
  }

 private:
  struct Drain {
    std::string group;
    std::set<std::string> evicted;  // pod uids
    TimePoint started;
    TimePoint deadline;
  };
  // Why a drained node goes (Cluster Autoscaler's reason) and how long
  // since its removal started.
  struct Drained {
    std::string reason;
    Duration took{};
  };
  struct NodeEvictions {
    Status status;                  // a refusal
    std::vector<std::string> left;  // pods still there that need eviction
    int64_t evicted = 0;            // this pass
  };
  // Every draining node's evictions (of the nodes still there),
  // kNodesEvictedAtOnce nodes at once; by node name.
  std::map<std::string, NodeEvictions> EvictAll(const ClusterView& view);
  // Evicts what needs it on `node`; the pods still there that need
  // eviction go into `*left`. A refusal is returned.
  Status EvictPods(const std::string& node,
                   const std::vector<const LivePod*>& on_node, Drain* drain,
                   NodeEvictions* out);
  void Fail(const NodeState& node, const std::string& why, Progress* progress);
  // `drained`: each node's, by name.
  void Delete(
      const std::map<std::string, std::vector<const NodeState*>>& by_group,
      const std::map<std::string, Drained>& drained, const ClusterView& view,
      Progress* progress);

  const kube::NodeActionClient* api_;
  Provider* provider_;
  const NodeScaleReporter* reporter_;
  const Clock* clock_;
  std::function<bool()> may_act_;
  const Duration max_graceful_termination_;
  // Nodes tainted and draining, by name. The wait spans passes, so it
  // never blocks the loop, the lease or a shutdown.
  std::map<std::string, Drain> draining_;
  // Nodes handed to the provider that are still registered.
  std::set<std::string> deleting_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_REMOVAL_QUEUE_H_
