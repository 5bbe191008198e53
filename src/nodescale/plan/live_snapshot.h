// From live pods and nodes to the planner's snapshot, as the loop sees it:
// each node labelled with its provider group; nodes of a group still waiting
// for capacity that are not Ready left out (so the planner counts them as
// upcoming: target above registered); pending pods only once the scheduler
// marked them Unschedulable and they are older than
// --new-pod-scale-up-delay; expendable pods not at all. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_LIVE_SNAPSHOT_H_
#define PROPSCALER_NODESCALE_PLAN_LIVE_SNAPSHOT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/node_templates.h"
#include "nodescale/plan/snapshot.h"

namespace propscaler::nodescale {

using GroupOfNode = std::function<std::string(const NodeState&)>;

// Ready, schedulable nodes by group.
std::map<std::string, int64_t> ReadyNodesByGroup(const SharedNodes& nodes,
                                                 const GroupOfNode& group_of);

struct LivePodFilter {
  Duration new_pod_delay = Duration(0);  // --new-pod-scale-up-delay
  // --expendable-pods-priority-cutoff: pods below it are left out, as
  // Cluster Autoscaler leaves them out of its snapshot (they neither ask
  // for a node nor keep one).
  int32_t expendable_cutoff = -10;
};

// The pods are shared with the snapshot, not copied.
ClusterSnapshot BuildLiveSnapshot(const SharedNodes& nodes,
                                  const SharedPods& pods,
                                  const GroupOfNode& group_of, TimePoint now,
                                  const LivePodFilter& filter);

// The pending pods the scheduler gave up on, old enough to act on, and not
// waiting for lower-priority pods to be preempted (nominated to a node).
bool WantsCapacity(const LivePod& pod, TimePoint now, Duration new_pod_delay);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_LIVE_SNAPSHOT_H_
