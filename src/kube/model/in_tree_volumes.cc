#include "kube/model/in_tree_volumes.h"

namespace propscaler::kube {

std::string_view MigratedDriverName(std::string_view name) {
  for (const InTreePlugin& plugin : kInTreePlugins) {
    if (plugin.plugin == name) return plugin.csi_driver;
  }
  return name;
}

std::optional<std::string_view> DriverOfLimitKey(std::string_view key) {
  constexpr std::string_view kCsiPrefix = "attachable-volumes-csi-";
  if (key.starts_with(kCsiPrefix) && key.size() > kCsiPrefix.size()) {
    return key.substr(kCsiPrefix.size());
  }
  for (const InTreePlugin& plugin : kInTreePlugins) {
    if (!plugin.limit_key.empty() && plugin.limit_key == key) {
      return plugin.csi_driver;
    }
  }
  return std::nullopt;
}

}  // namespace propscaler::kube
