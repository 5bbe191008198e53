// What disrupting a pod or a node costs, as Karpenter v1.14 weighs it, and
// the pod-level blockers (do-not-disrupt, PodDisruptionBudgets). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_COST_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_COST_H_

#include <optional>
#include <string>
#include <vector>

#include "nodescale/plan/disruption/disruption_input.h"

namespace propscaler::nodescale {

// clamp(1 + pod-deletion-cost / 2^27 + priority / 2^25, -10, 10); an
// unparsable deletion cost counts as 0.
double EvictionCost(const PodState& pod);

// Pods that move when their node goes: running or pending, neither
// DaemonSet nor mirror pods, not finished.
bool IsReschedulable(const PodState& pod);

// 1 + the sum of max(0, EvictionCost) over the reschedulable pods. A node
// whose cost is 1 is empty (Karpenter v1.14): pods of very low priority do
// not keep it.
double RescheduleCost(const std::vector<const PodState*>& pods_on_node);

// Why the pod keeps its node now: karpenter.sh/do-not-disrupt (or
// propscaler.io/do-not-disrupt) "true", or a duration the pod has not yet
// run for; CA's safe-to-evict "false"; more than one PDB covering it; a PDB
// allowing no disruption. nullopt when it may go.
std::optional<std::string> PodDisruptionBlocker(
    const PodState& pod, const std::vector<PdbState>& pdbs, TimePoint now);

// Whether a node opts out: do-not-disrupt "true" (either spelling) or CA's
// scale-down-disabled "true".
bool NodeOptsOut(const NodeState& node);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_COST_H_
