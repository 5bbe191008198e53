#include "nodescale/plan/simulation/node_templates.h"

#include <set>
#include <unordered_map>
#include <utility>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/simulation/predicates.h"
#include "nodescale/plan/simulation/taint_kinds.h"

namespace propscaler::nodescale {
NodeTemplate TemplateFromNode(const NodeState& node, const TaintKinds& kinds) {
  NodeTemplate out;
  out.allocatable = node.allocatable;
  out.volume_limits = node.volume_limits;
  out.labels = node.labels;
  out.labels.erase(std::string(kHostnameLabel));
  for (const Taint& taint : node.taints) {
    if (!IsNodeStateTaint(taint, kinds)) out.taints.push_back(taint);
  }
  return out;
}

NodeTemplate GroupMemberTemplate(const NodeState& node, std::string_view group,
                                 const TaintKinds& kinds) {
  NodeTemplate out = TemplateFromNode(node, kinds);
  out.labels[std::string(kNodeGroupLabel)] = std::string(group);
  return out;
}

std::map<std::string, NodeTemplate, std::less<>> TemplatesOfLiveNodes(
    const ClusterSnapshot& snapshot, const TaintKinds& kinds) {
  std::unordered_map<std::string_view, const NodeState*> model_of_group;
  for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const NodeState& node = snapshot.nodes[i];
    const std::string_view group = snapshot.GroupOf(i);
    if (group.empty() || !node.ready || node.unschedulable) continue;
    const NodeState*& model = model_of_group[group];
    if (model == nullptr ||
        node.volume_limits.size() >= model->volume_limits.size()) {
      model = &node;
    }
  }
  std::map<std::string, NodeTemplate, std::less<>> templates;
  for (const auto& [group, node] : model_of_group) {
    templates.emplace(group, GroupMemberTemplate(*node, group, kinds));
  }
  return templates;
}

std::optional<NodeTemplate> DeclaredTemplate(const NodeGroup& group,
                                             const TaintKinds& kinds) {
  if (!group.declared_template) return std::nullopt;
  NodeTemplate out = *group.declared_template;
  out.labels[std::string(kNodeGroupLabel)] = group.name;
  std::erase_if(out.taints, [&](const Taint& taint) {
    return IsNodeStateTaint(taint, kinds);
  });
  return out;
}

std::optional<ChosenTemplate> ChooseTemplate(
    const NodeGroup& group, const std::vector<const NodeState*>& group_nodes,
    const NodeTemplate* remembered, const TaintKinds& kinds) {
  const NodeState* best = nullptr;
  for (const NodeState* node : group_nodes) {
    if (!node->ready || node->unschedulable) continue;
    if (best == nullptr || node->name < best->name) best = node;
  }
  if (best != nullptr) {
    return ChosenTemplate{GroupMemberTemplate(*best, group.name, kinds),
                          TemplateSource::kReadyNode};
  }
  if (remembered != nullptr) {
    return ChosenTemplate{*remembered, TemplateSource::kRemembered};
  }
  if (std::optional<NodeTemplate> declared = DeclaredTemplate(group, kinds)) {
    return ChosenTemplate{std::move(*declared), TemplateSource::kDeclared};
  }
  return std::nullopt;
}

const VolumeLimits* NewNodeVolumeLimits(const NodeTemplate& node_template,
                                        bool csi_node_aware) {
  return csi_node_aware && !node_template.volume_limits.empty()
             ? &node_template.volume_limits
             : nullptr;
}

std::vector<const PodState*> OnePodPerDaemonSet(const PodList& pods) {
  std::set<std::pair<std::string_view, std::string_view>> seen;
  std::vector<const PodState*> out;
  for (const PodState& pod : pods) {
    if (!IsDaemonSetPod(pod) || pod.terminated) continue;
    if (seen.insert({pod.namespace_, pod.owner_name.get()}).second) {
      out.push_back(&pod);
    }
  }
  return out;
}

Resources FreeOnNewNode(const NodeTemplate& node_template,
                        const std::vector<const PodState*>& daemonset_pods) {
  Resources free = node_template.allocatable;
  for (const PodState* pod : daemonset_pods) {
    if (CheckNodeConstraints(*pod, node_template.labels,
                             node_template.taints) == Unfit::kNone) {
      free -= pod->requests;
    }
  }
  return free;
}

}  // namespace propscaler::nodescale
