#include "nodescale/plan/scale_down/soft_taints.h"

namespace propscaler::nodescale {

bool SoftTaintBudget::Allows(int changed, Duration elapsed) const {
  return changed < max_count && elapsed < max_time;
}

std::vector<SoftTaintChange> SoftTaintChanges(
    const std::vector<SoftTaintNode>& nodes,
    const std::set<std::string_view>& removing) {
  std::vector<SoftTaintChange> changes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const SoftTaintNode& node = nodes[i];
    if (node.tainted == node.unneeded) continue;
    if (node.unneeded && removing.contains(node.name)) continue;
    changes.push_back({i, node.unneeded});
  }
  return changes;
}

}  // namespace propscaler::nodescale
