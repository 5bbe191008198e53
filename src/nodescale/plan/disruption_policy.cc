#include "nodescale/plan/disruption_policy.h"

#include <string>

namespace propscaler::nodescale {

Result<DisruptionPolicy> ParseDisruptionPolicy(std::string_view flag) {
  if (flag == "auto") return DisruptionPolicy::kAuto;
  if (flag == "karpenter") return DisruptionPolicy::kKarpenter;
  if (flag == "scale-down") return DisruptionPolicy::kScaleDown;
  return Status::Invalid("--disruption=" + std::string(flag) +
                         ": want auto, karpenter or scale-down");
}

bool UsesKarpenterDisruption(DisruptionPolicy policy, bool pools_declared) {
  switch (policy) {
    case DisruptionPolicy::kKarpenter:
      return true;
    case DisruptionPolicy::kScaleDown:
      return false;
    case DisruptionPolicy::kAuto:
      return pools_declared;
  }
  return false;
}

RemovalPath RemovalPathOf(bool scale_down_enabled, DisruptionPolicy policy,
                          bool pools_declared) {
  if (!scale_down_enabled) return RemovalPath::kNone;
  return UsesKarpenterDisruption(policy, pools_declared)
             ? RemovalPath::kDisruption
             : RemovalPath::kScaleDown;
}

}  // namespace propscaler::nodescale
