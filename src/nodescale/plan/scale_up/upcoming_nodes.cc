#include "nodescale/plan/scale_up/upcoming_nodes.h"

#include <string_view>
#include <unordered_map>

#include "nodescale/plan/simulation/node_templates.h"

namespace propscaler::nodescale {

UpcomingNodes UpcomingNodesOf(const ClusterSnapshot& snapshot,
                              const std::vector<NodeGroup>& groups,
                              const ScaleUpMemory& memory,
                              const ScaleUpConfig& config) {
  std::unordered_map<std::string_view, std::vector<const NodeState*>>
      nodes_by_group;
  for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const std::string_view group = snapshot.GroupOf(i);
    if (!group.empty()) nodes_by_group[group].push_back(&snapshot.nodes[i]);
  }
  UpcomingNodes out;
  std::vector<const PodState*> daemonsets;
  bool daemonsets_found = false;
  for (const NodeGroup& group : groups) {
    const std::vector<const NodeState*>& registered =
        nodes_by_group[group.name];
    const int64_t coming =
        group.target_size - static_cast<int64_t>(registered.size());
    if (coming <= 0) continue;
    auto remembered = memory.remembered_templates.find(group.name);
    std::optional<ChosenTemplate> chosen = ChooseTemplate(
        group, registered,
        remembered == memory.remembered_templates.end() ? nullptr
                                                        : &remembered->second,
        config.taints);
    if (!chosen) continue;
    if (!daemonsets_found) {
      daemonsets = OnePodPerDaemonSet(snapshot.pods);
      daemonsets_found = true;
    }
    const NodeTemplate& node = out.templates.emplace_back(chosen->node);
    const Resources free = FreeOnNewNode(node, daemonsets);
    for (int64_t i = 0; i < coming; ++i) {
      out.bins.push_back(BinFromTemplate(
          node, free,
          NewNodeVolumeLimits(node, config.csi_node_aware_scheduling)));
    }
  }
  return out;
}

}  // namespace propscaler::nodescale
