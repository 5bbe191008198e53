// The scale-down half of NodeScaleLoop: unneeded tracking and taints, then
// the removal of the nodes due, through the removal queue.
#include <glog/logging.h>

#include <set>

#include "common/metrics.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {

void NodeScaleLoop::ScaleDown(Iteration* it) {
  ScaleDownPlan plan =
      PlanScaleDown(it->snapshot, it->groups, options_.scale_down);
  std::vector<std::string> unneeded;
  for (const NodeRemoval& removal : plan.removals) {
    unneeded.push_back(removal.node);
  }
  timers_.SetUnneeded(unneeded, it->now);
  UpdateCandidateTaints(*it);
  if (removals_.Draining()) {
    VLOG(1) << "scale-down: waiting for evicted pods to leave "
            << removals_.FirstDraining();
    return;
  }
  if (std::optional<std::string> blocked = timers_.Blocked(it->now)) {
    VLOG(1) << "scale-down: " << *blocked;
    return;
  }
  const std::vector<std::string> due = timers_.RemovableNow(unneeded, it->now);
  std::vector<const NodeRemoval*> empty;
  const NodeRemoval* busy = nullptr;
  for (const NodeRemoval& removal : plan.removals) {
    // A node handed to the provider stays registered until its machine
    // goes (Cluster API): it must not be removed, and replicas lowered, twice.
    if (std::find(due.begin(), due.end(), removal.node) == due.end() ||
        removals_.Deleting(removal.node)) {
      continue;
    }
    if (removal.reason == NodeRemoval::Reason::kEmpty) {
      if (static_cast<int>(empty.size()) < options_.max_empty_bulk_delete) {
        empty.push_back(&removal);
      }
    } else if (busy == nullptr) {
      busy = &removal;
    }
  }
  if (!empty.empty()) {
    RemoveNodes(empty, /*all_or_nothing=*/false, it);
  } else if (busy != nullptr) {
    RemoveNodes({busy}, /*all_or_nothing=*/false, it);
  }
}

void NodeScaleLoop::UpdateCandidateTaints(const Iteration& it) {
  for (const LiveNode& node : it.nodes) {
    const bool tainted = HasTaint(node.state, kDeletionCandidateTaint);
    const bool unneeded = timers_.IsUnneeded(node.state.name);
    if (tainted == unneeded || !may_act_()) continue;
    Status status = SetDeletionCandidate(*api_, node.state, unneeded, it.now);
    if (!status.ok()) {
      LOG(WARNING) << status.message();
    } else if (unneeded) {
      LOG(INFO) << "scale-down: node " << node.state.name << " is unneeded";
    }
  }
}

void NodeScaleLoop::NodeEvent(const NodeState& node, bool warning,
                              const std::string& reason,
                              const std::string& message) {
  events_->Record(
      {{"v1", "Node", "", node.name, ""}, warning, reason, message});
}

RemovalView NodeScaleLoop::RemovalViewOf(const Iteration& it,
                                         const SharedPods& pods) const {
  return {it.now, &it.nodes, &pods, &it.groups};
}

void NodeScaleLoop::RemoveNodes(const std::vector<const NodeRemoval*>& removals,
                                bool all_or_nothing, Iteration* it) {
  std::vector<RemovalQueue::Target> targets;
  for (const NodeRemoval* removal : removals) {
    targets.push_back({removal->node, removal->group});
  }
  // The pods as the store has them now, not as the iteration read them: a
  // pod bound since is evicted too.
  const SharedPods pods = state_->Pods();
  NoteRemovals(
      removals_.Start(targets, RemovalViewOf(*it, pods), all_or_nothing),
      it->now);
}

void NodeScaleLoop::NoteRemovals(const RemovalQueue::Progress& progress,
                                 TimePoint now) {
  if (progress.failed > 0) timers_.Failed(now);
  if (!progress.any_deleted()) return;
  timers_.Deleted(now);
  last_scale_down_ =
      progress.deleted.back() + " at " + kube::FormatMicroTime(now);
}

}  // namespace propscaler::nodescale
