// The `priorities` key of Cluster Autoscaler's
// cluster-autoscaler-priority-expander ConfigMap: YAML mapping integer
// priorities to lists of regexes over node group names, e.g.
//   10:
//     - .*on-demand.*
//   50:
//     - ^spot-.*
// Pure: text in, patterns or an error naming the bad entry out.
#ifndef PROPSCALER_NODESCALE_EXPANDER_PRIORITY_CONFIG_YAML_H_
#define PROPSCALER_NODESCALE_EXPANDER_PRIORITY_CONFIG_YAML_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler::nodescale {

// CA's ConfigMap name and key.
inline constexpr char kPriorityExpanderConfigMap[] =
    "cluster-autoscaler-priority-expander";
inline constexpr char kPriorityExpanderKey[] = "priorities";

Result<std::map<int, std::vector<std::string>>> ParsePriorityExpanderYaml(
    std::string_view text);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_PRIORITY_CONFIG_YAML_H_
