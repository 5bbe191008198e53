// Checks that a plan of node claims (Karpenter's way of scheduling over
// NodePools and a catalogue) is right, made apart from the scheduler: what
// kube-scheduler would judge of the pods on the nodes the plan makes, so
// that a scheduler that breaks a spread, an affinity or a node's room makes
// the benchmark fail instead of printing a fast figure. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_CLAIM_PLAN_CHECKS_H_
#define PROPSCALER_BENCH_CHECKS_CLAIM_PLAN_CHECKS_H_

#include <cstdint>
#include <vector>

#include "checks/plan_checks.h"
#include "nodescale/plan/claims/claim_scheduler.h"

namespace propscaler::bench {

// - every pending pod (DaemonSets' aside) is placed once or unschedulable;
// - each claim's labels meet its NodePool's requirements, its instance type
//   and offering are the catalogue's and carry those labels, its pods are
//   admitted by them and the pool's taints, and their requests fit the
//   type's allocatable less its DaemonSets;
// - each pod placed on an existing node fits it with what is bound there;
// - each topology spread holds as each pod lands, in the plan's placement
//   order: the pods its selector matches placed before it (and those bound)
//   in its domain, with it, exceed the fewest in any domain of the key
//   (those the nodes and claims have; a hostname's fewest is 0) by at most
//   maxSkew;
// - required pod anti-affinity: no other pod its term selects shares its
//   domain; required pod affinity, as each pod lands: a pod its term
//   selects is in its domain already, or none is anywhere and the term
//   selects the pod itself;
// - there are at least as many claims as the lower bound says, and at most
//   kNodeCountMargin times as many (node_count_bound.h), where no node
//   exists and every pod is placed.
Failures CheckClaimPlan(const nodescale::ClusterSnapshot& snapshot,
                        const std::vector<nodescale::NodePoolSpec>& pools,
                        const std::vector<nodescale::InstanceType>& catalogue,
                        const nodescale::ClaimPlan& plan);

// The fewest new nodes any plan needs with no node existing: the pending
// pods' NewNodesLowerBound on the largest instance type's allocatable.
int64_t ClaimLowerBound(const nodescale::ClusterSnapshot& snapshot,
                        const std::vector<nodescale::InstanceType>& catalogue);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_CLAIM_PLAN_CHECKS_H_
