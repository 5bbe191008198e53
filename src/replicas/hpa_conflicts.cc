#include "replicas/hpa_conflicts.h"

namespace propscaler {

std::vector<HpaConflict> FindHpaConflicts(
    const std::vector<kube::HpaRef>& hpas,
    const std::vector<kube::ScaleTarget>& targets) {
  std::vector<HpaConflict> conflicts;
  for (const kube::ScaleTarget& target : targets) {
    for (const kube::HpaRef& hpa : hpas) {
      if (hpa.target_kind == target.ApiKind() &&
          hpa.target_name == target.name) {
        conflicts.push_back({target, hpa.name});
      }
    }
  }
  return conflicts;
}

}  // namespace propscaler
