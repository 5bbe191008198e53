// What Karpenter's scheduler relaxes of a pod, and how (facts:
// kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling
// preferences.go): of its required node-affinity terms (ORed) only the
// first left applies; its preferences are required while they last: every
// preferred pod affinity and anti-affinity term, every ScheduleAnyway
// spread, and the heaviest preferred node term. When the pod fits nowhere
// one is dropped, in this order: the first required node term (while
// another is left), the heaviest preferred pod affinity term, then
// anti-affinity term, then node term (the next heaviest then applies), then
// the first ScheduleAnyway spread; last, PreferNoSchedule taints, which
// block a pod that does not tolerate them until then. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_CLAIMS_PREFERENCES_H_
#define PROPSCALER_NODESCALE_PLAN_CLAIMS_PREFERENCES_H_

#include <optional>
#include <string>
#include <vector>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct Relaxable {
  std::vector<NodeSelectorTerm> required_node_terms;  // those left
  PodPreferences preferences;                         // those left
};

// Whether Karpenter would relax anything of `pod`.
bool HasRelaxable(const PodState& pod);
Relaxable RelaxableOf(const PodState& pod);

// `pod` as planned with what is `left`: its first required node term left,
// ANDed with the heaviest preferred node term, and the preferred terms and
// spreads added to its own.
PodState AsPlanned(const PodState& pod, const Relaxable& left);

// Whether the pod tolerates every PreferNoSchedule taint of `taints`
// (Karpenter asks it to until its last relaxation; kube-scheduler never).
bool ToleratesPreferNoSchedule(const PodState& pod,
                               const std::vector<Taint>& taints);

// Drops one constraint in Karpenter's order (all but the PreferNoSchedule
// step, which the scheduler takes); what it dropped ("preferred
// pod anti-affinity term of weight 50"), or nullopt when nothing is left
// to drop.
std::optional<std::string> RelaxOne(Relaxable* left);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CLAIMS_PREFERENCES_H_
