#include "nodescale/plan/provisioning_requests/atomic_scale_up.h"

#include <algorithm>

namespace propscaler::nodescale {
namespace {

// The longest of the flag's time and the parts' groups' own.
Duration ProvisionTime(const AtomicScaleUp& scale_up,
                       const std::vector<NodeGroup>& groups,
                       Duration max_node_provision_time) {
  Duration time = max_node_provision_time;
  for (const AtomicScaleUp::Part& part : scale_up.parts) {
    const NodeGroup* group = FindGroup(groups, part.group);
    if (group != nullptr && group->options.max_node_provision_time) {
      time = std::max(time, *group->options.max_node_provision_time);
    }
  }
  return time;
}

}  // namespace

AtomicProgress ProgressOf(const AtomicScaleUp& scale_up,
                          const std::vector<AtomicNode>& nodes,
                          const std::vector<NodeGroup>& groups,
                          Duration max_node_provision_time, TimePoint now) {
  AtomicProgress progress;
  progress.provision_time =
      ProvisionTime(scale_up, groups, max_node_provision_time);
  progress.deadline = scale_up.asked + progress.provision_time;
  for (const AtomicScaleUp::Part& part : scale_up.parts) {
    progress.asked += part.delta;
    int64_t new_nodes = 0;
    for (const AtomicNode& node : nodes) {
      if (new_nodes == part.delta || node.group != part.group ||
          part.nodes_before.contains(std::string(node.name))) {
        continue;
      }
      ++new_nodes;
      if (node.ready) ++progress.ready;
      progress.came.push_back({std::string(node.name), part.group});
    }
  }
  if (progress.ready == progress.asked) {
    progress.state = AtomicProgress::State::kDone;
  } else if (scale_up.refused.empty() && now < progress.deadline) {
    progress.state = AtomicProgress::State::kInFlight;
  } else {
    progress.state = AtomicProgress::State::kGiveBack;
  }
  return progress;
}

int64_t UnregisteredOf(const AtomicScaleUp::Part& part, const NodeGroup& group,
                       const std::vector<AtomicNode>& nodes) {
  int64_t registered = 0;
  int64_t registered_new = 0;
  for (const AtomicNode& node : nodes) {
    if (node.group != part.group) continue;
    ++registered;
    if (!part.nodes_before.contains(std::string(node.name))) ++registered_new;
  }
  return std::min(part.delta - std::min(registered_new, part.delta),
                  group.target_size - registered);
}

std::string GiveBackReason(const AtomicScaleUp& scale_up,
                           const AtomicProgress& progress) {
  const std::string why =
      scale_up.refused.empty()
          ? "only " + std::to_string(progress.ready) + " of its " +
                std::to_string(progress.asked) +
                " new nodes were Ready within " +
                std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                   progress.provision_time)
                                   .count()) +
                "s (--max-node-provision-time)"
          : "the provider refused the scale-up (" + scale_up.refused + ")";
  return why + "; the " + std::to_string(progress.came.size()) +
         " nodes that came are given back";
}

}  // namespace propscaler::nodescale
