// The config of cluster-proportional-vertical-autoscaler (CPVA), read exactly
// as it reads it:
//   {"CONTAINER": {"requests"|"limits": {"RESOURCE": {"base": Q, "max": Q,
//     "step": Q, "coresPerStep": N, "nodesPerStep": N}}}}
// Member names match ignoring case, unknown members are ignored, null is
// absent; quantities are strings or numbers ("10m", "8Mi", 1); the
// per-step counts are integers. Container and resource names are kept as
// written. Pure: errors name the field and the bad value.
#ifndef PROPSCALER_VERTICAL_VERTICAL_CONFIG_H_
#define PROPSCALER_VERTICAL_VERTICAL_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler {

// One resource's coefficients; absent fields count as 0, as in CPVA.
struct ResourceScale {
  std::optional<int64_t> base_millis;
  std::optional<int64_t> max_millis;  // 0 or absent: no maximum
  std::optional<int64_t> step_millis;
  std::optional<int64_t> cores_per_step;  // 0 or absent: not by cores
  std::optional<int64_t> nodes_per_step;  // 0 or absent: not by nodes

  bool operator==(const ResourceScale&) const = default;
};

struct ContainerScale {
  std::map<std::string, ResourceScale> requests;  // by resource name
  std::map<std::string, ResourceScale> limits;

  bool operator==(const ContainerScale&) const = default;
};

using VerticalConfig = std::map<std::string, ContainerScale>;  // by container

// `source` names where the JSON came from in errors ("--default-config").
Result<VerticalConfig> ParseVerticalConfig(std::string_view json,
                                           const std::string& source);

// `over` laid on `base` as CPVA reads its --config-file over its
// --default-config: a container in `over` replaces the same container of
// `base` whole; the others of `base` stay.
VerticalConfig OverlayVerticalConfig(VerticalConfig base,
                                     const VerticalConfig& over);

// What CPVA accepts but almost surely is a mistake (a negative quantity or
// per-step count), one line each, for the log.
std::vector<std::string> VerticalConfigWarnings(const VerticalConfig& config);

// "container coredns: requests cpu {base=10m step=1m nodesPerStep=1}; ..."
std::string DescribeVerticalConfig(const VerticalConfig& config);

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_CONFIG_H_
