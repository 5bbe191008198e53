#include "nodescale/plan/health/live_snapshot.h"

#include <algorithm>

namespace propscaler::nodescale {

const LiveNode* FindNode(const SharedNodes& nodes, std::string_view name) {
  for (const LiveNode& node : nodes) {
    if (node.state.name == name) return &node;
  }
  return nullptr;
}

std::map<std::string, int64_t> ReadyNodesByGroup(const SharedNodes& nodes,
                                                 const GroupOfNode& group_of) {
  std::map<std::string, int64_t> out;
  for (const LiveNode& node : nodes) {
    if (node.state.ready) ++out[group_of(node.state)];
  }
  return out;
}

std::map<std::string, ReadinessCounts> ReadinessByGroup(
    const SharedNodes& nodes, const GroupOfNode& group_of,
    const std::vector<Readiness>& readiness) {
  std::map<std::string, ReadinessCounts> out;
  for (size_t i = 0; i < nodes.size() && i < readiness.size(); ++i) {
    ReadinessCounts& counts = out[group_of(nodes[i].state)];
    switch (readiness[i]) {
      case Readiness::kReady:
        ++counts.ready;
        break;
      case Readiness::kNotStarted:
        ++counts.not_started;
        break;
      case Readiness::kUnready:
        ++counts.unready;
        break;
    }
  }
  return out;
}

bool WantsCapacity(const LivePod& pod, TimePoint now, Duration new_pod_delay) {
  return IsPending(pod.state) && pod.unschedulable &&
         pod.nominated_node.empty() && now - pod.created >= new_pod_delay;
}

namespace {

// As the scheduler sees an Unready node, whatever its copy says yet: not
// Ready, tainted not-ready, so no pod is placed there (a node whose Ready
// condition just went False is tainted a moment later; one held by a
// startup taint is Ready by its condition).
void MarkUnready(NodeState* node) {
  node->ready = false;
  const Taint not_ready{"node.kubernetes.io/not-ready", "",
                        TaintEffect::kNoSchedule};
  if (std::find(node->taints.begin(), node->taints.end(), not_ready) ==
      node->taints.end()) {
    node->taints.push_back(not_ready);
  }
}

// The snapshot's nodes and their group column.
void CopyNodes(const SharedNodes& nodes, const std::vector<std::string>& groups,
               const std::vector<Readiness>& readiness,
               ClusterSnapshot* snapshot) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::string& group = groups[i];
    // A NotStarted node of a group is capacity still coming: leaving it out
    // makes the planner count it in target - registered.
    if (!group.empty() && readiness[i] == Readiness::kNotStarted) continue;
    snapshot->nodes.push_back(nodes[i].state);
    snapshot->node_groups.push_back(group);
    if (readiness[i] == Readiness::kUnready)
      MarkUnready(&snapshot->nodes.back());
  }
}

bool SameSources(const SharedNodes& nodes, const SnapshotNodeCache& cache) {
  if (cache.sources.size() != nodes.size()) return false;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (cache.sources[i] != nodes.SharedAt(i)) return false;
  }
  return true;
}

}  // namespace

ClusterSnapshot BuildLiveSnapshot(const SharedNodes& nodes,
                                  const SharedPods& pods,
                                  const GroupOfNode& group_of,
                                  const std::vector<Readiness>& readiness,
                                  TimePoint now, const LivePodFilter& filter,
                                  SnapshotNodeCache* cache) {
  ClusterSnapshot snapshot;
  std::vector<std::string> groups;
  groups.reserve(nodes.size());
  for (const LiveNode& node : nodes) groups.push_back(group_of(node.state));
  if (cache->nodes && groups == cache->groups &&
      readiness == cache->readiness && SameSources(nodes, *cache)) {
    snapshot.nodes = std::move(*cache->nodes);
    snapshot.node_groups = std::move(cache->node_groups);
  } else {
    CopyNodes(nodes, groups, readiness, &snapshot);
    cache->readiness = readiness;
    cache->sources.clear();
    for (size_t i = 0; i < nodes.size(); ++i) {
      cache->sources.push_back(nodes.SharedAt(i));
    }
    cache->groups = std::move(groups);
  }
  cache->nodes.reset();
  snapshot.pods.reserve(pods.size());
  for (size_t i = 0; i < pods.size(); ++i) {
    const LivePod& pod = pods[i];
    if (IsExpendable(pod.state, filter.expendable_cutoff)) continue;
    if (IsPending(pod.state) &&
        !WantsCapacity(pod, now, filter.new_pod_delay)) {
      continue;
    }
    snapshot.pods.Share(PodList::Shared(pods.SharedAt(i), &pod.state));
  }
  return snapshot;
}

void ReturnNodes(ClusterSnapshot* snapshot, SnapshotNodeCache* cache) {
  cache->nodes = std::move(snapshot->nodes);
  cache->node_groups = std::move(snapshot->node_groups);
  snapshot->nodes.clear();
  snapshot->node_groups.clear();
}

}  // namespace propscaler::nodescale
