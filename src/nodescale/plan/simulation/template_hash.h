// A stable hash of a node template (allocatable, labels, taints): the kwok
// provider stamps it on the nodes it makes, and a node whose stamp differs
// from its group's template now has drifted. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_TEMPLATE_HASH_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_TEMPLATE_HASH_H_

#include <string>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// 16 hex digits; the same for equal templates in every process and version
// that keeps this function.
std::string TemplateHash(const NodeTemplate& node_template);

// Why the node has drifted from its group's declared template, or empty:
// only nodes stamped with a hash can drift.
std::string DriftOf(const NodeState& node, const NodeGroup& group);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_TEMPLATE_HASH_H_
