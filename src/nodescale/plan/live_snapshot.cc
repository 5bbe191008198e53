#include "nodescale/plan/live_snapshot.h"

namespace propscaler::nodescale {

std::map<std::string, int64_t> ReadyNodesByGroup(const SharedNodes& nodes,
                                                 const GroupOfNode& group_of) {
  std::map<std::string, int64_t> out;
  for (const LiveNode& node : nodes) {
    if (node.state.ready) ++out[group_of(node.state)];
  }
  return out;
}

bool WantsCapacity(const LivePod& pod, TimePoint now, Duration new_pod_delay) {
  return IsPending(pod.state) && pod.unschedulable &&
         pod.nominated_node.empty() && now - pod.created >= new_pod_delay;
}

ClusterSnapshot BuildLiveSnapshot(const SharedNodes& nodes,
                                  const SharedPods& pods,
                                  const GroupOfNode& group_of, TimePoint now,
                                  const LivePodFilter& filter) {
  ClusterSnapshot snapshot;
  for (const LiveNode& node : nodes) {
    const std::string group = group_of(node.state);
    // A not-ready node of a group is capacity still coming: leaving it out
    // makes the planner count it in target - registered.
    if (!group.empty() && !node.state.ready) continue;
    NodeState state = node.state;
    if (!group.empty()) state.labels[std::string(kNodeGroupLabel)] = group;
    snapshot.nodes.push_back(std::move(state));
  }
  snapshot.pods.reserve(pods.size());
  for (size_t i = 0; i < pods.size(); ++i) {
    const LivePod& pod = pods[i];
    if (pod.state.priority < filter.expendable_cutoff) continue;
    if (IsPending(pod.state) &&
        !WantsCapacity(pod, now, filter.new_pod_delay)) {
      continue;
    }
    snapshot.pods.Share(PodList::Shared(pods.SharedAt(i), &pod.state));
  }
  return snapshot;
}

}  // namespace propscaler::nodescale
