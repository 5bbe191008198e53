#include "nodescale/plan/simulation/node_volume_limits.h"

#include <algorithm>
#include <string>

#include "kube/model/in_tree_volumes.h"

namespace propscaler::nodescale {

bool HasAllocatableVolumeLimits(const Resources& allocatable) {
  return std::ranges::any_of(allocatable.extended, [](const auto& entry) {
    return kube::DriverOfLimitKey(entry.first).has_value();
  });
}

VolumeLimits NodeVolumeLimits(const Resources& allocatable,
                              const VolumeLimits* csi_node) {
  VolumeLimits out;
  for (const auto& [key, count] : allocatable.extended) {
    if (std::optional<std::string_view> driver = kube::DriverOfLimitKey(key)) {
      out.insert_or_assign(std::string(*driver), count);
    }
  }
  if (csi_node != nullptr) {
    for (const auto& [driver, count] : *csi_node) {
      out.insert_or_assign(driver, count);
    }
  }
  return out;
}

}  // namespace propscaler::nodescale
