// The scale-down half of NodeScaleLoop: unneeded tracking and taints, then
// the removal of the nodes due, through the removal queue.
#include <glog/logging.h>

#include <set>
#include <string_view>

#include "common/utc_time.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/scale_down/soft_taints.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {

void NodeScaleLoop::ScaleDown(const ScaleDownDecision& decision,
                              Iteration* it) {
  timers_ = decision.timers;
  last_scale_down_pass_ = it->now;
  UpdateCandidateTaints(*it, decision.choice.removals);
  if (decision.choice.removals.empty()) {
    VLOG(1) << "scale-down: " << decision.choice.waiting;
    return;
  }
  std::vector<RemovalQueue::Target> targets;
  for (const NodeRemoval& removal : decision.choice.removals) {
    targets.push_back({removal.node, removal.group});
  }
  RemoveNodes(targets, /*all_or_nothing=*/false, it);
}

void NodeScaleLoop::UpdateCandidateTaints(
    const Iteration& it, const std::vector<NodeRemoval>& removing) {
  std::set<std::string_view> removed;
  for (const NodeRemoval& removal : removing) removed.insert(removal.node);
  std::vector<SoftTaintNode> nodes;
  nodes.reserve(it.nodes.size());
  for (const LiveNode& node : it.nodes) {
    nodes.push_back({node.state.name,
                     HasTaint(node.state, kDeletionCandidateTaint),
                     timers_.IsUnneeded(node.state.name)});
  }
  SetSoftTaints taints{{}, options_.soft_taints};
  for (const SoftTaintChange& change : SoftTaintChanges(nodes, removed)) {
    taints.changes.push_back({it.nodes[change.node].state.name, change.taint});
  }
  if (!taints.changes.empty()) {
    executor_.Run(taints, ClusterViewOf(it, it.pods));
  }
}

ClusterView NodeScaleLoop::ClusterViewOf(const Iteration& it,
                                         const SharedPods& pods) const {
  return {it.now, &it.nodes, &pods, &it.groups, &it.group_of};
}

void NodeScaleLoop::RemoveNodes(
    const std::vector<RemovalQueue::Target>& targets, bool all_or_nothing,
    Iteration* it) {
  NoteRemovals(executor_
                   .Run(StartRemoval{targets, all_or_nothing},
                        ClusterViewOf(*it, it->pods))
                   .removal,
               it->now);
}

void NodeScaleLoop::NoteRemovals(const RemovalQueue::Progress& progress,
                                 TimePoint now) {
  if (progress.failed > 0) timers_.Failed(now);
  if (!progress.any_deleted()) return;
  timers_.Deleted(now);
  last_scale_down_ = progress.deleted.back() + " at " + FormatMicroTime(now);
}

}  // namespace propscaler::nodescale
