// The scale-down planner: which nodes of which groups can go now, as Cluster
// Autoscaler decides it.
//
// Pending pods are first placed on the nodes they fit (Ready or not yet,
// never cordoned), as Cluster Autoscaler's filter-out-schedulable does, so a
// node that pending pods will use is not unneeded. Utilization is
// max(cpu, memory) requested / allocatable, DaemonSet and mirror pods
// counted unless told otherwise (CA's --ignore-daemonsets-utilization and
// --ignore-mirror-pods-utilization, both false by default). A node is a
// candidate when it is below the threshold, its group is above min size, it
// does not carry ToBeDeletedByClusterAutoscaler (it is being removed), and
// it is not annotated
// cluster-autoscaler.kubernetes.io/scale-down-disabled=true. It is removable
// only if every pod on it can move: pods without a controller,
// safe-to-evict "false", local storage (emptyDir/hostPath) without
// safe-to-evict "true", and kube-system pods no PodDisruptionBudget covers
// block (safe-to-evict "true" lifts every one of these, as in CA); so does a
// pod whose budget has no disruption left, counting the pods of nodes
// already removed in this pass (CA's remaining-PDB tracking); and the
// movable pods must fit on the remaining nodes, counting pods already moved
// there in this pass. As in Cluster Autoscaler's planner, a node that
// received pods stays a candidate, and if it goes they move again with its
// own; only removed nodes stop being destinations. Empty nodes
// come first, then the least utilized. Removals never take the cluster below
// --cores-total / --memory-total minimums. Timers (unneeded time, delays)
// belong to the loop. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SCALE_DOWN_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SCALE_DOWN_H_

#include <optional>
#include <string>
#include <vector>

#include "nodescale/plan/scale_down/drain.h"
#include "nodescale/plan/simulation/limits.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct ScaleDownConfig {
  double utilization_threshold = 0.5;
  bool ignore_daemonsets_utilization = false;
  bool ignore_mirror_pods_utilization = false;
  // --scale-down-unready-enabled: false keeps every node that is not Ready
  // (in a live snapshot, the Unready ones: see plan/health/node_health.h).
  bool unready_enabled = true;
  ResourceLimits limits;
};

struct NodeRemoval {
  enum class Reason { kEmpty, kUnderutilized };
  std::string node;
  std::string group;
  Reason reason = Reason::kEmpty;
  double utilization = 0;
  bool unready = false;  // due after --scale-down-unready-time
  // The group's own unneeded (or, when unready, unready) time; unset: the
  // flag's.
  std::optional<Duration> wait;
};

// A candidate that stays, and why.
struct KeptNode {
  std::string node;
  std::string reason;
};

struct ScaleDownPlan {
  std::vector<NodeRemoval> removals;  // empty nodes first
  std::vector<KeptNode> kept;
};

// Utilization of a node from the pods bound to it.
double NodeUtilization(const NodeState& node,
                       const std::vector<const PodState*>& pods_on_node,
                       const ScaleDownConfig& config);

// Why this pod keeps its node, or nullopt when it may be evicted (or, like
// DaemonSet and mirror pods, does not need to move). A kube-system pod may
// go only when a PodDisruptionBudget covers it, as in CA.
std::optional<std::string> EvictionBlocker(const PodState& pod,
                                           const std::vector<PdbState>& pdbs);

ScaleDownPlan PlanScaleDown(const ClusterSnapshot& snapshot,
                            const std::vector<NodeGroup>& groups,
                            const ScaleDownConfig& config);

std::string_view RemovalReasonName(NodeRemoval::Reason reason);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SCALE_DOWN_H_
