// What the disruption planner decides on: the snapshot, per node what the
// snapshot does not say (age, when its pods last changed, whether it is
// already going), the groups with their pools and prices, PodDisruption
// Budgets, and the time. Plain data.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_INPUT_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_INPUT_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/disruption/disruption_budget.h"
#include "nodescale/plan/simulation/snapshot.h"
#include "nodescale/plan/simulation/taint_kinds.h"

namespace propscaler::nodescale {

// Parallel to the snapshot's nodes.
struct NodeLife {
  TimePoint created;
  // The last time a pod came to or left the node (its creation before
  // any): consolidateAfter counts from here, as Karpenter's
  // lastPodEventTime.
  TimePoint last_pod_event;
  // Being removed (by a command in flight, or marked for deletion).
  bool deleting = false;
  // It has been Ready once: until then it neither counts for budgets nor
  // is a candidate, as Karpenter's uninitialized nodes.
  bool initialized = true;
};

struct DisruptionInput {
  const ClusterSnapshot* snapshot = nullptr;
  std::vector<NodeLife> life;  // one per snapshot node
  std::vector<NodeGroup> groups;
  // Declared pools; a group naming none is in the default pool, which has
  // Karpenter's defaults unless declared here under kDefaultPoolName.
  std::vector<NodePool> pools;
  // Priority of each group under the priority expander (higher first);
  // used only by pools that migrate to preferred groups.
  std::map<std::string, int, std::less<>> group_priority;
  // Per group, its nodes that were Ready once and are NotReady now, which
  // the live snapshot leaves out (as capacity still coming): they count
  // for the pool's budgets as disrupting, as Karpenter counts them.
  std::map<std::string, int64_t, std::less<>> not_ready_nodes;
  // Groups that may not grow now (backed off after a failed scale-up).
  std::set<std::string, std::less<>> backed_off_groups;
  // Which taints of a live node its group's template leaves out.
  TaintKinds taints;
  // --enable-csi-node-aware-scheduling: a replacement node takes the attach
  // limits of the live node its group's template was taken from.
  bool csi_node_aware_scheduling = false;
  TimePoint now;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_INPUT_H_
