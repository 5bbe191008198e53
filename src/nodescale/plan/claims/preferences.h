// A pod's preferences as Karpenter's scheduler treats them: required while
// they last, dropped one at a time when the pod fits nowhere (facts:
// kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling
// preferences.go). Kept: every preferred pod affinity and anti-affinity
// term and every ScheduleAnyway spread; of the preferred node terms, the
// heaviest. Dropped in this order: the heaviest preferred pod affinity
// term, then anti-affinity term, then node term (the next heaviest then
// applies), then the first ScheduleAnyway spread. (PreferNoSchedule taints
// never block a pod here, so Karpenter's last step has nothing to do.)
// Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_CLAIMS_PREFERENCES_H_
#define PROPSCALER_NODESCALE_PLAN_CLAIMS_PREFERENCES_H_

#include <optional>
#include <string>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// `pod` with what is left of its preferences required: preferred terms
// and spreads added to its own, the heaviest node term ANDed into each of
// its required node terms (or its only term when it has none).
PodState WithPreferencesRequired(const PodState& pod,
                                 const PodPreferences& preferences);

// Drops one preference in Karpenter's order; what it dropped ("preferred
// pod anti-affinity term of weight 50"), or nullopt when none is left.
std::optional<std::string> RelaxOne(PodPreferences* preferences);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CLAIMS_PREFERENCES_H_
