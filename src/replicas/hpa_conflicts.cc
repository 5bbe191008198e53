#include "replicas/hpa_conflicts.h"

#include "replicas/hpa_floors.h"

namespace propscaler {

std::vector<HpaConflict> FindHpaConflicts(
    const std::vector<kube::HpaRef>& hpas,
    const std::vector<kube::ScaleTarget>& targets) {
  std::vector<HpaConflict> conflicts;
  for (const kube::ScaleTarget& target : targets) {
    for (const kube::HpaRef& hpa : hpas) {
      if (HpaScales(hpa, target)) conflicts.push_back({target, hpa.name});
    }
  }
  return conflicts;
}

}  // namespace propscaler
