#include "nodescale/run/removal_queue.h"

#include <glog/logging.h>

#include "common/parallel_calls.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {
RemovalQueue::RemovalQueue(const kube::NodeActionClient* api,
                           Provider* provider,
                           const NodeScaleReporter* reporter,
                           const Clock* clock, std::function<bool()> may_act,
                           Duration max_graceful_termination)
    : api_(api),
      provider_(provider),
      reporter_(reporter),
      clock_(clock),
      may_act_(std::move(may_act)),
      max_graceful_termination_(max_graceful_termination) {}

RemovalQueue::Progress RemovalQueue::Start(const std::vector<Target>& targets,
                                           const ClusterView& view,
                                           bool all_or_nothing) {
  Progress progress;
  std::vector<std::pair<const LiveNode*, std::string>> marked;
  for (const Target& target : targets) {
    const LiveNode* node = FindNode(*view.nodes, target.node);
    if (node == nullptr || !may_act_()) continue;
    Status status = MarkToBeDeleted(*api_, node->state, view.now);
    if (!status.ok()) {
      if (!all_or_nothing) {
        LOG(WARNING) << status.message();
        continue;
      }
      const std::string why =
          "the set of nodes it was removed with could not be tainted (" +
          status.message() + ")";
      Fail(node->state, why, &progress);
      for (const auto& [other, group] : marked) {
        Fail(other->state, why, &progress);
      }
      return progress;
    }
    reporter_->NodeEvent(node->state.name, false, "ScaleDown",
                         "marked the node as toBeDeleted/unschedulable");
    marked.emplace_back(node, target.group);
  }
  for (const auto& [node, group] : marked) {
    draining_[node->state.name] = {
        group, {}, view.now, view.now + max_graceful_termination_};
  }
  return Advance(view);
}

RemovalQueue::Progress RemovalQueue::Advance(const ClusterView& view) {
  Progress progress;
  if (draining_.empty() || !may_act_()) return progress;
  const std::map<std::string, NodeEvictions> evictions = EvictAll(view);
  std::map<std::string, std::vector<const NodeState*>> by_group;
  std::map<std::string, Drained> drained;
  for (auto entry = draining_.begin(); entry != draining_.end();) {
    auto& [name, drain] = *entry;
    const LiveNode* node = FindNode(*view.nodes, name);
    if (node == nullptr) {
      entry = draining_.erase(entry);
      continue;
    }
    const NodeEvictions& evicted = evictions.at(name);
    const std::vector<std::string>& left = evicted.left;
    if (!evicted.status.ok()) {
      Fail(node->state, evicted.status.message(), &progress);
    } else {
      switch (NextDrainStep(left.size(), drain.deadline, view.now)) {
        case DrainStep::kDelete:
          by_group[drain.group].push_back(&node->state);
          drained[name] = {!node->state.ready      ? "unready"
                           : drain.evicted.empty() ? "empty"
                                                   : "underutilized",
                           view.now - drain.started};
          break;
        case DrainStep::kFail:
          Fail(node->state,
               "pod " + left.front() +
                   " still on the node after --max-graceful-termination-sec",
               &progress);
          break;
        case DrainStep::kWait:
          ++entry;
          continue;
      }
    }
    entry = draining_.erase(entry);
  }
  Delete(by_group, drained, view, &progress);
  return progress;
}

std::map<std::string, RemovalQueue::NodeEvictions> RemovalQueue::EvictAll(
    const ClusterView& view) {
  std::map<std::string, std::vector<const LivePod*>> on_node;
  for (const LivePod& pod : *view.pods) {
    if (draining_.contains(pod.state.node_name)) {
      on_node[pod.state.node_name].push_back(&pod);
    }
  }
  // Read apart before the calls: they share nothing but the client.
  std::vector<std::string> names;
  std::vector<Drain*> drains;
  std::vector<std::vector<const LivePod*>> pods;
  for (auto& [name, drain] : draining_) {
    if (FindNode(*view.nodes, name) == nullptr) continue;
    names.push_back(name);
    drains.push_back(&drain);
    pods.push_back(std::move(on_node[name]));
  }
  std::vector<NodeEvictions> done(names.size());
  const std::vector<Status> statuses = RunParallelCalls(
      *clock_, names.size(), kNodesEvictedAtOnce, [&](size_t i) {
        return EvictPods(names[i], pods[i], drains[i], &done[i]);
      });
  std::map<std::string, NodeEvictions> out;
  int64_t evicted = 0;
  int64_t failed = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    done[i].status = statuses[i];
    evicted += done[i].evicted;
    failed += statuses[i].ok() ? 0 : 1;
    out[names[i]] = std::move(done[i]);
  }
  if (evicted > 0 || failed > 0) reporter_->PodsEvicted(evicted, failed);
  return out;
}

Status RemovalQueue::EvictPods(const std::string& node,
                               const std::vector<const LivePod*>& on_node,
                               Drain* drain, NodeEvictions* out) {
  std::vector<std::string>* left = &out->left;
  const int64_t max_grace = std::chrono::duration_cast<std::chrono::seconds>(
                                max_graceful_termination_)
                                .count();
  int64_t evicted = 0;
  for (const LivePod* pod : on_node) {
    if (!MovesWithDrain(pod->state)) continue;
    left->push_back(pod->state.Key());
    if (drain->evicted.contains(pod->uid)) continue;
    Status status = EvictPod(*api_, pod->state,
                             EvictionGraceSeconds(pod->state, max_grace));
    if (!status.ok()) {
      out->evicted = evicted;
      return status.WithContext("draining the node");
    }
    drain->evicted.insert(pod->uid);
    ++evicted;
  }
  out->evicted = evicted;
  LOG_IF(INFO, evicted > 0)
      << "scale-down: evicted " << evicted << " pod(s) from " << node
      << "; it is deleted once no pod that needs eviction is left on it";
  return Status::Ok();
}

void RemovalQueue::Fail(const NodeState& node, const std::string& why,
                        Progress* progress) {
  LOG(WARNING) << "scale-down of node " << node.name << " failed: " << why;
  reporter_->NodeEvent(node.name, true, "ScaleDownFailed",
                       "failed to delete the node: " + why);
  Status unmarked = UnmarkToBeDeleted(*api_, node);
  LOG_IF(WARNING, !unmarked.ok()) << unmarked.message();
  ++progress->failed;
}

void RemovalQueue::Delete(
    const std::map<std::string, std::vector<const NodeState*>>& by_group,
    const std::map<std::string, Drained>& drained, const ClusterView& view,
    Progress* progress) {
  for (const auto& [name, nodes] : by_group) {
    const NodeGroup* group = FindGroup(*view.groups, name);
    if (group == nullptr || !may_act_()) continue;
    Status status = provider_->DeleteNodes(*group, nodes);
    if (!status.ok()) {
      reporter_->DeleteFailed(*group);
      for (const NodeState* node : nodes) {
        Fail(*node, status.message(), progress);
      }
      continue;
    }
    for (const NodeState* node : nodes) {
      deleting_.insert(node->name);
      LOG(INFO) << "scale-down: removed node " << node->name << " of group "
                << name;
      reporter_->NodeEvent(node->name, false, "ScaleDown",
                           "node removed by propscaler");
      progress->deleted.push_back(node->name + " of " + name);
      const Drained& removal = drained.at(node->name);
      reporter_->NodeRemovedFor(*node, removal.reason, removal.took);
    }
    reporter_->NodesRemoved(name, nodes.size());
  }
}

void RemovalQueue::ClearStaleTaints(const ClusterView& view) {
  std::set<std::string> still_there;
  for (const LiveNode& node : *view.nodes) {
    const std::string& name = node.state.name;
    if (deleting_.contains(name)) still_there.insert(name);
    if (Removing(name) || !HasTaint(node.state, kToBeDeletedTaint) ||
        !may_act_()) {
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

}  // namespace propscaler::nodescale
