#include <string_view>

#include "fuzz/fuzz_targets.h"
#include "kube/wire/snapshot_json.h"
#include "nodescale/domain/instance_types_json.h"
#include "nodescale/domain/node_groups_json.h"
#include "nodescale/domain/node_pools_json.h"
#include "nodescale/expander/priority_config_yaml.h"

namespace propscaler::fuzz {

// The first byte picks the file: node-groups JSON (kwok's ConfigMap and
// simulate's --node-groups), the priority expander's YAML, Karpenter
// NodePools (YAML documents or JSON) or a kwok instance-types file.
void FuzzNodeGroups(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1),
                              size - 1);
  switch (data[0] % 4) {
    case 0:
      (void)nodescale::DecodeNodeGroupsJson(text);
      break;
    case 1:
      (void)nodescale::ParsePriorityExpanderYaml(text);
      break;
    case 2:
      (void)nodescale::DecodeNodePools(text);
      break;
    default:
      (void)nodescale::DecodeInstanceTypes(text);
  }
}

}  // namespace propscaler::fuzz
