// From live pods and nodes to the planner's snapshot, as the loop sees it:
// each node's provider group in the snapshot's group column (the node copy
// is the node as listed); the NotStarted nodes of a group left out (so the
// planner counts them as upcoming: target above registered), the Unready
// ones kept (registered, no room: see plan/health/node_health.h); pending pods
// only once the scheduler
// marked them Unschedulable and they are older than
// --new-pod-scale-up-delay; expendable pods not at all. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_HEALTH_LIVE_SNAPSHOT_H_
#define PROPSCALER_NODESCALE_PLAN_HEALTH_LIVE_SNAPSHOT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/health/node_health.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

using GroupOfNode = std::function<std::string(const NodeState&)>;

// Ready, schedulable nodes by group.
std::map<std::string, int64_t> ReadyNodesByGroup(const SharedNodes& nodes,
                                                 const GroupOfNode& group_of);

// Each group's nodes by readiness; `readiness`: each node's.
std::map<std::string, ReadinessCounts> ReadinessByGroup(
    const SharedNodes& nodes, const GroupOfNode& group_of,
    const std::vector<Readiness>& readiness);

// The node of that name; null when there is none.
const LiveNode* FindNode(const SharedNodes& nodes, std::string_view name);

struct LivePodFilter {
  Duration new_pod_delay = Duration(0);  // --new-pod-scale-up-delay
  // --expendable-pods-priority-cutoff: pods below it are left out, as
  // Cluster Autoscaler leaves them out of its snapshot (they neither ask
  // for a node nor keep one).
  int32_t expendable_cutoff = -10;
};

// The snapshot's node copies of one iteration, kept for the next: when
// every node is the same object in the same group (a cluster at rest), the
// copies are reused, not made again (5,000 nodes' labels, annotations and
// taints copied and freed every loop were a third of a loop at rest).
struct SnapshotNodeCache {
  std::vector<SharedNodes::Shared> sources;
  std::vector<std::string> groups;   // of each source
  std::vector<Readiness> readiness;  // of each source
  // The copies and their group column, while no snapshot holds them:
  // ReturnNodes gives them back.
  std::optional<std::vector<NodeState>> nodes;
  std::vector<std::string> node_groups;
};

// The pods are shared with the snapshot, not copied; the nodes are copied
// unless `cache` holds the same copies. `readiness`: each node's.
ClusterSnapshot BuildLiveSnapshot(const SharedNodes& nodes,
                                  const SharedPods& pods,
                                  const GroupOfNode& group_of,
                                  const std::vector<Readiness>& readiness,
                                  TimePoint now, const LivePodFilter& filter,
                                  SnapshotNodeCache* cache);

// Gives a snapshot's node copies back to `cache` when it is done with them.
void ReturnNodes(ClusterSnapshot* snapshot, SnapshotNodeCache* cache);

// Below --expendable-pods-priority-cutoff: such a pod neither triggers a
// scale-up nor keeps a node, as in Cluster Autoscaler.
inline bool IsExpendable(const PodState& pod, int32_t cutoff) {
  return pod.priority < cutoff;
}

// The pending pods the scheduler gave up on, old enough to act on, and not
// waiting for lower-priority pods to be preempted (nominated to a node).
bool WantsCapacity(const LivePod& pod, TimePoint now, Duration new_pod_delay);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_HEALTH_LIVE_SNAPSHOT_H_
