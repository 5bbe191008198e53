// HorizontalPodAutoscalers that scale one of propscaler's targets: the two
// would fight over spec.replicas. Pure: lists in, matches out.
#ifndef PROPSCALER_REPLICAS_HPA_CONFLICTS_H_
#define PROPSCALER_REPLICAS_HPA_CONFLICTS_H_

#include <string>
#include <vector>

#include "kube/model/objects.h"
#include "kube/model/scale_target.h"

namespace propscaler {

struct HpaConflict {
  kube::ScaleTarget target;
  std::string hpa;  // the HPA's name
};

// Matches scaleTargetRef kind (as the API spells it) and name.
std::vector<HpaConflict> FindHpaConflicts(
    const std::vector<kube::HpaRef>& hpas,
    const std::vector<kube::ScaleTarget>& targets);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_HPA_CONFLICTS_H_
