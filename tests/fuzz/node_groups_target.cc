#include <string_view>

#include "fuzz/fuzz_targets.h"
#include "kube/wire/snapshot_json.h"
#include "nodescale/domain/node_groups_json.h"
#include "nodescale/expander/priority_config_yaml.h"

namespace propscaler::fuzz {

// The first byte picks the file: node-groups JSON (kwok's ConfigMap and
// simulate's --node-groups) or the priority expander's YAML.
void FuzzNodeGroups(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1),
                              size - 1);
  if (data[0] % 2 == 0) {
    (void)nodescale::DecodeNodeGroupsJson(text);
  } else {
    (void)nodescale::ParsePriorityExpanderYaml(text);
  }
}

}  // namespace propscaler::fuzz
