#include "nodescale/plan/disruption_life.h"

#include <functional>

#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {

void NotePodEvents(const SharedNodes& nodes, const SharedPods& pods,
                   TimePoint now, DisruptionMemory* memory) {
  std::map<std::string, uint64_t> fingerprints;
  for (const LivePod& pod : pods) {
    if (pod.state.node_name.empty() || IsDaemonSetPod(pod.state)) continue;
    fingerprints[pod.state.node_name] +=
        std::hash<std::string>{}(pod.uid + pod.state.Key()) +
        (pod.state.terminated ? 1 : 0);
  }
  std::map<std::string, DisruptionMemory::PodEvents> next;
  for (const LiveNode& node : nodes) {
    const std::string& name = node.state.name;
    if (node.state.ready) memory->seen_ready.insert(name);
    const uint64_t fingerprint = fingerprints[name];
    auto found = memory->pod_events.find(name);
    if (found == memory->pod_events.end()) {
      next[name] = {fingerprint,
                    node.created == TimePoint() ? now : node.created};
    } else if (found->second.fingerprint != fingerprint) {
      next[name] = {fingerprint, now};
    } else {
      next[name] = found->second;
    }
  }
  memory->pod_events = std::move(next);
  std::erase_if(memory->seen_ready, [&](const std::string& name) {
    return !memory->pod_events.contains(name);
  });
}

DisruptionInput DisruptionInputOf(const DisruptionObservation& observed,
                                  const DisruptionMemory& memory,
                                  const GroupBackoff& backoff) {
  DisruptionInput input;
  input.snapshot = observed.snapshot;
  std::map<std::string_view, const LiveNode*> live;
  for (const LiveNode& node : *observed.nodes) live[node.state.name] = &node;
  std::set<std::string_view> in_snapshot;
  for (const NodeState& node : observed.snapshot->nodes) {
    in_snapshot.insert(node.name);
    NodeLife life;
    auto found = live.find(node.name);
    life.created = found == live.end() ? observed.now : found->second->created;
    auto events = memory.pod_events.find(node.name);
    if (events != memory.pod_events.end()) {
      life.last_pod_event = events->second.last_change;
    }
    life.deleting = observed.removing.contains(node.name) ||
                    HasTaint(node, kToBeDeletedTaint);
    life.initialized = memory.seen_ready.contains(node.name);
    input.life.push_back(life);
  }
  for (const LiveNode& node : *observed.nodes) {
    const std::string group = (*observed.group_of)(node.state);
    if (!group.empty() && !node.state.ready &&
        memory.seen_ready.contains(node.state.name) &&
        !in_snapshot.contains(node.state.name)) {
      ++input.not_ready_nodes[group];
    }
  }
  input.groups = *observed.groups;
  input.pools = observed.pools;
  input.group_priority =
      GroupPriorities(*observed.groups, *observed.priorities);
  input.backed_off_groups = backoff.BackedOffGroups(observed.now);
  input.taints = observed.taints;
  input.csi_node_aware_scheduling = observed.csi_node_aware_scheduling;
  input.now = observed.now;
  return input;
}

}  // namespace propscaler::nodescale
