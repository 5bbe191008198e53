#include "vertical/vertical_arithmetic.h"

#include <algorithm>
#include <limits>

namespace propscaler {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// ceil(count / per) for a positive per; Go's truncating division otherwise.
int64_t Increments(int64_t count, int64_t per) {
  if (per == 0) return 0;
  if (per == 1) return count;
  int64_t numerator = 0;
  if (__builtin_add_overflow(count, per - 1, &numerator)) return count / per;
  return numerator / per;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? kMax : kMin;
}

int64_t SaturatingMultiply(int64_t a, int64_t b) {
  int64_t product = 0;
  if (!__builtin_mul_overflow(a, b, &product)) return product;
  return (a < 0) == (b < 0) ? kMax : kMin;
}

int64_t OneSide(const ResourceScale& scale, int64_t count, int64_t per) {
  count = std::max<int64_t>(count, 0);  // a count is never below 0
  const int64_t want =
      SaturatingAdd(scale.base_millis.value_or(0),
                    SaturatingMultiply(scale.step_millis.value_or(0),
                                       Increments(count, per)));
  const int64_t max = scale.max_millis.value_or(0);
  return max > 0 && want > max ? max : want;
}

std::map<std::string, int64_t> ComputeSide(
    const std::map<std::string, ResourceScale>& side,
    const VerticalCounts& counts) {
  std::map<std::string, int64_t> out;
  for (const auto& [resource, scale] : side) {
    out[resource] = ScaledMillis(scale, counts);
  }
  return out;
}

}  // namespace

int64_t ScaledMillis(const ResourceScale& scale, const VerticalCounts& counts) {
  return std::max(
      OneSide(scale, counts.cores, scale.cores_per_step.value_or(0)),
      OneSide(scale, counts.nodes, scale.nodes_per_step.value_or(0)));
}

std::map<std::string, ComputedResources> ComputeResources(
    const VerticalConfig& config, const VerticalCounts& counts) {
  std::map<std::string, ComputedResources> out;
  for (const auto& [name, container] : config) {
    out[name] = {ComputeSide(container.requests, counts),
                 ComputeSide(container.limits, counts)};
  }
  return out;
}

}  // namespace propscaler
