// Checks that a benchmark's plan is right, made apart from the planner that
// produced it: a second placement of the pods with the same predicates, so
// that a planner that asks for too few nodes, leaves a pod that a group
// could take, or removes a node whose pods have nowhere to go makes the
// benchmark fail instead of printing a fast figure. Each check returns the
// failures it found, each naming the pod, node or group and the bad value;
// empty when the plan holds. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_PLAN_CHECKS_H_
#define PROPSCALER_BENCH_CHECKS_PLAN_CHECKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_up/scale_up.h"

namespace propscaler::bench {

using Failures = std::vector<std::string>;

// A scale-up plan against its snapshot and groups:
// - each pod counted as fitting existing or requested nodes is placed on
//   them, and each increase's pods on the very new node the plan names for
//   them (GroupIncrease::pod_nodes), by every predicate a node decides alone
//   (resources, pod slots, selectors, affinity to node labels, taints, host
//   ports, hostname anti-affinity); spreads and affinities between pods
//   across nodes are not judged again, as they depend on the order the
//   planner placed pods in;
// - no group grows past its max size (--max-nodes-per-scaleup bounds a
//   round, and an increase sums a group's rounds: it is not checked);
// - every pending pod is in the plan once, and none is left unschedulable
//   that an empty new node of a group with room would take;
// - each increase asks for at least, and at most kNodeCountMargin times,
//   the NewNodesLowerBound of its pods on its group's new node
//   (node_count_bound.h): the expander chose the group, the packing is the
//   planner's.
Failures CheckScaleUpPlan(const nodescale::ClusterSnapshot& snapshot,
                          const std::vector<nodescale::NodeGroup>& groups,
                          const nodescale::ScaleUpPlan& plan);

// NewNodesLowerBound of the pods the plan's increases take, on the largest
// new node any group offers: the fewest nodes of any group choice (a
// figure; group choices are the expander's).
int64_t ScaleUpLowerBound(const nodescale::ClusterSnapshot& snapshot,
                          const std::vector<nodescale::NodeGroup>& groups,
                          const nodescale::ScaleUpPlan& plan);

// A scale-down plan against its snapshot: its nodes exist and are
// distinct; none is at or above its group's utilization threshold (unless
// removed as unready); an empty removal has no pod that must move; and
// every pod that must leave the removed nodes fits, largest first, on the
// nodes that stay, after the pending pods.
Failures CheckScaleDownPlan(const nodescale::ClusterSnapshot& snapshot,
                            const std::vector<nodescale::NodeGroup>& groups,
                            const nodescale::ScaleDownConfig& config,
                            const nodescale::ScaleDownPlan& plan);

// A disruption command against its input and the plan's budgets:
// - its nodes exist, are distinct and are not already going;
// - every pod that must leave them finds a place on the nodes that stay or
//   on the replacement's new nodes;
// - consolidation takes no node holding a pod that may not be disrupted
//   (do-not-disrupt, or a PodDisruptionBudget with no disruption left) and
//   saves money: the nodes' price less the replacement's, positive and as
//   the command states it;
// - emptiness takes only nodes with no pod to move;
// - no pool gives up more nodes than its budget allows for the reason.
Failures CheckDisruptionCommand(const nodescale::DisruptionInput& input,
                                const nodescale::DisruptionPlan& plan,
                                const nodescale::DisruptionCommand& command);

// The failures as one line for a benchmark's error: the first few and how
// many more.
std::string Summarize(const Failures& failures);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_PLAN_CHECKS_H_
