// The scale-down half of NodeScaleLoop: unneeded tracking and taints, then
// drain and delete.
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
  if (!draining_.empty()) {
    VLOG(1) << "scale-down: waiting for evicted pods to leave "
            << draining_.begin()->first;
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
        deleting_.contains(removal.node)) {
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
    RemoveNodes(empty, it);
  } else if (busy != nullptr) {
    RemoveNodes({busy}, it);
  }
}

void NodeScaleLoop::ClearStaleDeletionTaints(const Iteration& it) {
  std::set<std::string> still_there;
  for (const LiveNode& node : it.nodes) {
    const std::string& name = node.state.name;
    if (deleting_.contains(name)) still_there.insert(name);
    if (deleting_.contains(name) || draining_.contains(name) ||
        !HasTaint(node.state, kToBeDeletedTaint) || !may_act_()) {
      continue;
    }
    Status status = UnmarkToBeDeleted(*api_, node.state);
    if (status.ok()) {
      LOG(INFO) << "scale-down: node " << name << " carried "
                << kToBeDeletedTaint
                << " but is not being removed (left by a restart, a "
                   "failover or a failed removal); taint removed";
    } else {
      LOG(WARNING) << status.message() << " (retried next loop)";
    }
  }
  deleting_ = std::move(still_there);
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

Status NodeScaleLoop::Drain(const NodeState& node, const Iteration& it,
                            std::vector<std::string>* evicted) {
  const int64_t max_grace = std::chrono::duration_cast<std::chrono::seconds>(
                                options_.max_graceful_termination)
                                .count();
  for (const LivePod& pod : it.pods) {
    if (pod.state.node_name != node.name || !MovesWithDrain(pod.state)) {
      continue;
    }
    Status status =
        EvictPod(*api_, pod.state, EvictionGraceSeconds(pod.state, max_grace));
    if (!status.ok()) return status.WithContext("draining the node");
    evicted->push_back(pod.state.Key());
  }
  return Status::Ok();
}

namespace {

// The evicted pods still running on `node`: present, bound there and not
// terminated (a pod recreated elsewhere under the same name has gone, as
// in CA).
std::vector<std::string> PodsLeft(const std::vector<std::string>& evicted,
                                  const std::string& node,
                                  const SharedPods& pods) {
  std::vector<std::string> left;
  for (const LivePod& pod : pods) {
    if (pod.state.node_name == node && !pod.state.terminated &&
        std::find(evicted.begin(), evicted.end(), pod.state.Key()) !=
            evicted.end()) {
      left.push_back(pod.state.Key());
    }
  }
  return left;
}

}  // namespace

void NodeScaleLoop::FinishDrains(Iteration* it) {
  std::map<std::string, std::vector<const NodeState*>> by_group;
  for (auto entry = draining_.begin(); entry != draining_.end();) {
    const auto& [name, drain] = *entry;
    const LiveNode* node = it->Node(name);
    if (node == nullptr) {
      entry = draining_.erase(entry);
      continue;
    }
    const std::vector<std::string> left = PodsLeft(drain.pods, name, it->pods);
    if (left.empty()) {
      by_group[drain.group].push_back(&node->state);
    } else if (it->now >= drain.deadline) {
      FailRemoval(node->state,
                  "pod " + left.front() +
                      " still on the node after "
                      "--max-graceful-termination-sec",
                  it->now);
    } else {
      ++entry;
      continue;
    }
    entry = draining_.erase(entry);
  }
  DeleteFromGroups(by_group, it);
}

void NodeScaleLoop::FailRemoval(const NodeState& node, const std::string& why,
                                TimePoint now) {
  LOG(WARNING) << "scale-down of node " << node.name << " failed: " << why;
  NodeEvent(node, true, "ScaleDownFailed", "failed to delete the node: " + why);
  Status unmarked = UnmarkToBeDeleted(*api_, node);
  LOG_IF(WARNING, !unmarked.ok()) << unmarked.message();
  timers_.Failed(now);
}

void NodeScaleLoop::RemoveNodes(const std::vector<const NodeRemoval*>& removals,
                                Iteration* it) {
  std::map<std::string, std::vector<const NodeState*>> by_group;
  for (const NodeRemoval* removal : removals) {
    const LiveNode* node = it->Node(removal->node);
    if (node == nullptr || !may_act_()) continue;
    if (Status s = MarkToBeDeleted(*api_, node->state, it->now); !s.ok()) {
      LOG(WARNING) << s.message();
      continue;
    }
    NodeEvent(node->state, false, "ScaleDown",
              "marked the node as toBeDeleted/unschedulable");
    std::vector<std::string> evicted;
    if (Status drained = Drain(node->state, *it, &evicted); !drained.ok()) {
      FailRemoval(node->state, drained.message(), it->now);
      continue;
    }
    if (evicted.empty()) {
      by_group[removal->group].push_back(&node->state);
      continue;
    }
    LOG(INFO) << "scale-down: evicted " << evicted.size() << " pod(s) from "
              << removal->node << "; it is deleted once they are gone";
    draining_[removal->node] = {removal->group, std::move(evicted),
                                it->now + options_.max_graceful_termination};
  }
  DeleteFromGroups(by_group, it);
}

void NodeScaleLoop::DeleteFromGroups(
    const std::map<std::string, std::vector<const NodeState*>>& by_group,
    Iteration* it) {
  for (const auto& [name, nodes] : by_group) {
    const NodeGroup* group = it->Group(name);
    if (group == nullptr || !may_act_()) continue;
    Status status = provider_->DeleteNodes(*group, nodes);
    if (!status.ok()) {
      for (const NodeState* node : nodes) {
        FailRemoval(*node, status.message(), it->now);
      }
      continue;
    }
    for (const NodeState* node : nodes) {
      deleting_.insert(node->name);
      LOG(INFO) << "scale-down: removed node " << node->name << " of group "
                << name;
      NodeEvent(*node, false, "ScaleDown", "node removed by propscaler");
      last_scale_down_ =
          node->name + " of " + name + " at " + kube::FormatMicroTime(it->now);
    }
    GlobalMetrics().Add("propscaler_scale_downs_total", {{"node_group", name}},
                        static_cast<double>(nodes.size()));
    timers_.Deleted(it->now);
  }
}

}  // namespace propscaler::nodescale
