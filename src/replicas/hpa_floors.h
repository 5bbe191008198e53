// Which HorizontalPodAutoscaler takes the computed count as its
// spec.minReplicas, target by target: the one --hpa-floor names, or with
// --hpa-floor-auto the one HPA that scales a target. Pure: HPAs and
// targets in, the plan out.
#ifndef PROPSCALER_REPLICAS_HPA_FLOORS_H_
#define PROPSCALER_REPLICAS_HPA_FLOORS_H_

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "kube/model/objects.h"
#include "kube/model/scale_target.h"

namespace propscaler {

struct FloorPlan {
  // By target ("kind/name"): the HPA whose minReplicas is its count.
  std::map<std::string, kube::HpaRef> floors;
  // By target: why it is left as it is (several HPAs scale it).
  std::map<std::string, std::string> refused;
};

// Whether `hpa`'s scaleTargetRef is `target`.
bool HpaScales(const kube::HpaRef& hpa, const kube::ScaleTarget& target);

// --hpa-floor: `named` floors the target it scales; an error (`ref` names
// the HPA) when that is none of `targets`.
Result<FloorPlan> PlanNamedFloor(const kube::HpaRef& named,
                                 const std::vector<kube::ScaleTarget>& targets,
                                 const std::string& ref);

// --hpa-floor-auto: a target exactly one of `hpas` scales gets that HPA; one
// that several scale is refused, naming them; the rest are scaled as usual.
FloorPlan PlanAutoFloors(const std::vector<kube::HpaRef>& hpas,
                         const std::vector<kube::ScaleTarget>& targets);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_HPA_FLOORS_H_
