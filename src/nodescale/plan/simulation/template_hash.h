// A stable hash of a node template (allocatable, labels, taints) and of a
// NodePool's template: the kwok provider stamps them on the nodes it makes,
// and a node whose stamp differs from its group's template, or its
// NodePool's, now has drifted. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_TEMPLATE_HASH_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_TEMPLATE_HASH_H_

#include <string>

#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// 16 hex digits; the same for equal templates in every process and version
// that keeps this function.
std::string TemplateHash(const NodeTemplate& node_template);

// The same of what a NodePool gives its nodes that Karpenter's hash covers:
// template labels, taints, startup taints, expireAfter and
// terminationGracePeriod (requirements, weight, limits and disruption do
// not count).
std::string NodePoolHash(const NodePoolSpec& pool);

// Why the node has drifted, or empty: its group is retired, or the node's
// NodePool hash or template hash is not its group's now (only nodes stamped
// with a hash can drift).
std::string DriftOf(const NodeState& node, const NodeGroup& group);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_TEMPLATE_HASH_H_
