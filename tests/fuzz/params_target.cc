#include <chrono>
#include <optional>
#include <string>

#include "fuzz/fuzz_targets.h"
#include "replicas/arithmetic.h"
#include "replicas/params.h"
#include "replicas/scale_down_smoothing.h"

namespace propscaler::fuzz {

// The first byte picks the key; the rest is its value.
void FuzzParams(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string json(reinterpret_cast<const char*>(data) + 1, size - 1);
  Result<Params> params = Status::Invalid("");
  switch (data[0] % 3) {
    case 0:
      params = ParseParams({{"linear", json}});
      break;
    case 1:
      params = ParseParams({{"ladder", json}});
      break;
    default:
      if (auto flag = DefaultParamsToData(json); flag.ok()) {
        params = ParseParams(*flag);
      }
  }
  if (!params.ok()) return;
  for (const ClusterCounts& counts :
       {ClusterCounts{0, 0, 0, 0}, ClusterCounts{3, 2, 12, 8},
        ClusterCounts{65000, 64000, INT64_MAX / 2, INT64_MAX / 4}}) {
    (void)DesiredReplicas(*params, counts);
  }
  // Any valid policy, at the extremes of spec.replicas (an int32).
  const std::optional<ScaleDownPolicy>& policy = ScaleDownOf(*params);
  SmoothedReplicas smoothed =
      SmoothScaleDown(policy, {}, TimePoint(), INT32_MAX, 0);
  smoothed = SmoothScaleDown(policy, smoothed.history,
                             TimePoint() + std::chrono::hours(48),
                             smoothed.replicas, INT32_MAX);
}

}  // namespace propscaler::fuzz
