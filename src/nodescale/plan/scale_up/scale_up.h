// The scale-up planner: pending pods + node groups + limits + backoff ->
// which groups grow by how many nodes, for which pods, and why the pods left
// over cannot be helped, per group.
//
// As Cluster Autoscaler: pending pods that fit existing nodes or nodes
// already requested (target size above registered nodes) are left to the
// scheduler; for the rest, each group that is not backed off and has room
// gets an option estimated by FFD over the pods its template admits, capped
// by its max size and the global limits; the expander chain picks one, which
// --balance-similar-node-groups may split across similar groups. Rounds
// repeat on the pods still pending until no option is left, so the plan
// covers every pod a group can take. Pure: no I/O, no clock.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_UP_SCALE_UP_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_UP_SCALE_UP_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "nodescale/expander/chain.h"
#include "nodescale/plan/simulation/limits.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct ScaleUpConfig {
  ResourceLimits limits;
  bool balance_similar_node_groups = false;
  // Groups that pack alike share one estimate per round. Off only to check
  // that sharing changes no plan.
  bool share_estimates = true;
  // Which taints of a live node its group's template leaves out.
  TaintKinds taints;
  // --enable-csi-node-aware-scheduling: new and upcoming nodes take the
  // attach limits of the live node their template was taken from.
  bool csi_node_aware_scheduling = false;
};

// What the live loop carries from one iteration to the next.
struct ScaleUpMemory {
  // Templates of groups seen with a ready node before, by group name.
  std::map<std::string, NodeTemplate, std::less<>> remembered_templates;
  // Groups whose last scale-up failed and are waiting out their backoff.
  std::set<std::string, std::less<>> backed_off_groups;
  // Groups with too many nodes not Ready (plan/health/node_health.h), and why.
  std::map<std::string, std::string, std::less<>> unhealthy_groups;
};

struct GroupIncrease {
  std::string group;
  int64_t delta = 0;
  std::vector<std::string> pods;  // "namespace/name", in snapshot order
  // Parallel to `pods`: which of the `delta` new nodes (0-based) the
  // estimate put each on.
  std::vector<int64_t> pod_nodes;
};

// "{group 3->5 (max: 10)}", as Cluster Autoscaler describes an increase
// ("(max: its NodePool's limits)" for a NodePool's candidate).
std::string DescribeIncrease(const GroupIncrease& increase,
                             const NodeGroup& group);

// Why no group takes a pod: a reason per group, by group name.
using GroupReasons = std::map<std::string, std::string>;

struct UnschedulablePod {
  std::string pod;
  // Shared by the pods of one equivalence class, which fail for the same
  // reasons: a map over every group copied for each of thousands of pods
  // cost more than planning them.
  std::shared_ptr<const GroupReasons> reasons;
};

struct ScaleUpPlan {
  std::vector<GroupIncrease> increases;  // in the order decided
  std::vector<UnschedulablePod> unschedulable;
  // Pending pods that fit existing or already requested nodes.
  std::vector<std::string> fit_existing;
};

ScaleUpPlan PlanScaleUp(const ClusterSnapshot& snapshot,
                        const std::vector<NodeGroup>& groups,
                        const ScaleUpMemory& memory,
                        const ScaleUpConfig& config, ExpanderChain* expander);

// One all-or-nothing scale-up, as Cluster Autoscaler makes it for a
// best-effort-atomic-scale-up ProvisioningRequest: planned for `pods` alone
// (keys of pending pods of the snapshot, placed after the others: the other
// pending pods take their room on existing and upcoming nodes first and are
// then left out). Those that fit existing or upcoming nodes need nothing;
// for the rest a group (with its similar groups under
// --balance-similar-node-groups) is an option only if its estimate takes
// every one: a max size or limit that cuts the count makes it none. One
// round: at most one option is taken. No increase and nothing unschedulable:
// the pods fit as the cluster is.
ScaleUpPlan PlanAllOrNothingScaleUp(const ClusterSnapshot& snapshot,
                                    const std::vector<NodeGroup>& groups,
                                    const ScaleUpMemory& memory,
                                    const ScaleUpConfig& config,
                                    ExpanderChain* expander,
                                    const std::set<std::string>& pods);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_UP_SCALE_UP_H_
