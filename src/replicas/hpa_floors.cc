#include "replicas/hpa_floors.h"

namespace propscaler {

bool HpaScales(const kube::HpaRef& hpa, const kube::ScaleTarget& target) {
  return hpa.target_kind == target.ApiKind() && hpa.target_name == target.name;
}

Result<FloorPlan> PlanNamedFloor(const kube::HpaRef& named,
                                 const std::vector<kube::ScaleTarget>& targets,
                                 const std::string& ref) {
  std::string names;
  for (const kube::ScaleTarget& target : targets) {
    if (HpaScales(named, target)) {
      return FloorPlan{{{target.ToString(), named}}, {}};
    }
    names += (names.empty() ? "" : ", ") + target.ToString();
  }
  return Status::Invalid(ref + " scales " + named.target_kind + " " +
                         named.target_name + ", which is not a target (" +
                         (names.empty() ? std::string("none now") : names) +
                         "); the replicas are left as they are");
}

FloorPlan PlanAutoFloors(const std::vector<kube::HpaRef>& hpas,
                         const std::vector<kube::ScaleTarget>& targets) {
  FloorPlan plan;
  for (const kube::ScaleTarget& target : targets) {
    std::vector<const kube::HpaRef*> scaling;
    for (const kube::HpaRef& hpa : hpas) {
      if (HpaScales(hpa, target)) scaling.push_back(&hpa);
    }
    if (scaling.size() == 1) {
      plan.floors[target.ToString()] = *scaling.front();
    } else if (scaling.size() > 1) {
      std::string names;
      for (const kube::HpaRef* hpa : scaling) {
        names += (names.empty() ? "" : ", ") + hpa->name;
      }
      plan.refused[target.ToString()] =
          target.ToString() + " is scaled by " +
          std::to_string(scaling.size()) + " HorizontalPodAutoscalers (" +
          names +
          "), so --hpa-floor-auto cannot tell which takes the floor; its "
          "replicas are left as they are: remove all but one";
    }
  }
  return plan;
}

}  // namespace propscaler
