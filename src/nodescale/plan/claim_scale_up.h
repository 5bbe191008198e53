// NodePools over a catalogue, as node-scale mode's loop runs them: each
// candidate of each NodePool (instance type x offering) is a node group of
// its own for the rest of the loop (upcoming nodes, health, backoff,
// scale-down, disruption), and the scale-up is Karpenter's scheduler's
// (plan/claims), each claim one new node of the group of the candidate it
// launches as. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_CLAIM_SCALE_UP_H_
#define PROPSCALER_NODESCALE_PLAN_CLAIM_SCALE_UP_H_

#include <string>
#include <vector>

#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/plan/claims/pool_catalogue.h"
#include "nodescale/plan/scale_up/scale_up.h"

namespace propscaler::nodescale {

// The name of a candidate's group, a valid label value:
// "<pool>.<type>.<zone>.<capacity type>", shortened with a hash of the
// whole past 63 characters.
std::string CandidateGroupName(const NodePoolSpec& pool,
                               const InstanceType& type,
                               const Offering& offering);

// One group per candidate of every NodePool: its pool, capacity type and
// price, no size limit of its own (the NodePool's limits bound the plan),
// and a template of the candidate's labels, the type's allocatable and the
// pool's taints.
std::vector<NodeGroup> CatalogueGroups(const NodePoolCatalogue& catalogue);

// The scale-up for the pending pods: the nodes that exist and those still
// coming (groups' targets above their nodes) take pods first; each claim
// then asks its group for one node. Offerings whose group is backed off
// are not launched.
ScaleUpPlan PlanClaimScaleUp(const ClusterSnapshot& snapshot,
                             const std::vector<NodeGroup>& groups,
                             const ScaleUpMemory& memory,
                             const ScaleUpConfig& config,
                             const NodePoolCatalogue& catalogue);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CLAIM_SCALE_UP_H_
