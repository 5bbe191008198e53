// Which path removes nodes (--disruption): Cluster Autoscaler's scale-down,
// Karpenter's disruption (consolidation, drift, expiry, budgets), or auto:
// Karpenter's when the provider declares pools. Chosen once from the flag;
// the loop asks RemovalPathOf each iteration, never the flag's text. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_POLICY_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_POLICY_H_

#include <string_view>

#include "common/status.h"

namespace propscaler::nodescale {

enum class DisruptionPolicy { kAuto, kKarpenter, kScaleDown };

// "auto", "karpenter" or "scale-down"; anything else is refused, naming it.
Result<DisruptionPolicy> ParseDisruptionPolicy(std::string_view flag);

bool UsesKarpenterDisruption(DisruptionPolicy policy, bool pools_declared);

// What removes nodes this iteration: nothing (--scale-down-enabled=false),
// Cluster Autoscaler's scale-down, or Karpenter's disruption.
enum class RemovalPath { kNone, kScaleDown, kDisruption };
RemovalPath RemovalPathOf(bool scale_down_enabled, DisruptionPolicy policy,
                          bool pools_declared);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_POLICY_H_
