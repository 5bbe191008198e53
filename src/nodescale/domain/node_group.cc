#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

const NodeGroup* FindGroup(const std::vector<NodeGroup>& groups,
                           std::string_view name) {
  for (const NodeGroup& group : groups) {
    if (group.name == name) return &group;
  }
  return nullptr;
}

}  // namespace propscaler::nodescale
