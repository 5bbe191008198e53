// The Karpenter half of NodeScaleLoop: plan a disruption command, wait out
// its validation delay and check it again, launch its replacement and wait
// for it to be Ready, then remove the old nodes as scale-down does (taint
// ToBeDeleted, evict through the Eviction API, delete).
#include <glog/logging.h>

#include <functional>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {

bool NodeScaleLoop::KarpenterDisruption() const {
  return UsesKarpenterDisruption(options_.disruption,
                                 !provider_->Pools().empty());
}

void NodeScaleLoop::NotePodEvents(const Iteration& it) {
  std::map<std::string, uint64_t> fingerprints;
  for (const LivePod& pod : it.pods) {
    if (pod.state.node_name.empty() || IsDaemonSetPod(pod.state)) continue;
    fingerprints[pod.state.node_name] +=
        std::hash<std::string>{}(pod.uid + pod.state.Key()) +
        (pod.state.terminated ? 1 : 0);
  }
  std::map<std::string, PodEvents> next;
  for (const LiveNode& node : it.nodes) {
    const std::string& name = node.state.name;
    if (node.state.ready) seen_ready_.insert(name);
    const uint64_t fingerprint = fingerprints[name];
    auto found = pod_events_.find(name);
    if (found == pod_events_.end()) {
      next[name] = {fingerprint,
                    node.created == TimePoint() ? it.now : node.created};
    } else if (found->second.fingerprint != fingerprint) {
      next[name] = {fingerprint, it.now};
    } else {
      next[name] = found->second;
    }
  }
  pod_events_ = std::move(next);
  std::erase_if(seen_ready_, [&](const std::string& name) {
    return !pod_events_.contains(name);
  });
}

DisruptionInput NodeScaleLoop::DisruptionInputOf(const Iteration& it) {
  DisruptionInput input;
  input.snapshot = &it.snapshot;
  std::map<std::string, const LiveNode*> live;
  for (const LiveNode& node : it.nodes) live[node.state.name] = &node;
  std::set<std::string> in_flight;
  for (const std::string& node : commands_.ReplacedNodes()) {
    in_flight.insert(node);
  }
  for (const NodeState& node : it.snapshot.nodes) {
    NodeLife life;
    auto found = live.find(node.name);
    life.created = found == live.end() ? it.now : found->second->created;
    life.last_pod_event = pod_events_[node.name].last_change;
    life.deleting = executor_.drain().Removing(node.name) ||
                    in_flight.contains(node.name) ||
                    HasTaint(node, kToBeDeletedTaint);
    life.initialized = seen_ready_.contains(node.name);
    input.life.push_back(life);
  }
  std::set<std::string> in_snapshot;
  for (const NodeState& node : it.snapshot.nodes) in_snapshot.insert(node.name);
  for (const LiveNode& node : it.nodes) {
    const std::string group = it.group_of(node.state);
    if (!group.empty() && !node.state.ready &&
        seen_ready_.contains(node.state.name) &&
        !in_snapshot.contains(node.state.name)) {
      ++input.not_ready_nodes[group];
    }
  }
  input.groups = it.groups;
  input.pools = provider_->Pools();
  input.group_priority = GroupPriorities(it.groups, it.priorities);
  input.backed_off_groups = backoff_.BackedOffGroups(it.now);
  input.taints = options_.scale_up.taints;
  input.csi_node_aware_scheduling = options_.scale_up.csi_node_aware_scheduling;
  input.now = it.now;
  return input;
}

bool NodeScaleLoop::MayPlanDisruption(Iteration* it) {
  NotePodEvents(*it);
  return !commands_.InFlight() && !executor_.drain().Draining() && it->pdbs;
}

void NodeScaleLoop::Disrupt(const std::optional<DisruptionPlan>& plan,
                            Iteration* it) {
  const ClusterView view = ClusterViewOf(*it, it->pods);
  if (commands_.Replacing()) {
    Execute(commands_.Advance(nullptr, view), it);
    return;
  }
  if (executor_.drain().Draining()) return;  // a removal is still under way
  if (!it->pdbs) {
    // PodDisruptionBudgets not listed yet (or RBAC refuses them): no
    // disruption without knowing which pods may go.
    blocked_ = {};
    commands_.WaitFor(
        "waiting for PodDisruptionBudgets to be listed before disrupting");
    return;
  }
  if (commands_.InFlight()) {  // validating
    const DisruptionInput input = DisruptionInputOf(*it);
    Execute(commands_.Advance(&input, view), it);
    return;
  }
  if (!plan) return;
  ReportDisruption(*plan, *it);
  Execute(commands_.Propose(plan->command, view), it);
}

void NodeScaleLoop::Execute(const CommandQueue::Step& step, Iteration* it) {
  if (!step.failed_group.empty()) {
    backoff_.Fail(step.failed_group, it->now,
                  {"cloudProviderError",
                   "the replacement's nodes were refused or did not come"});
  }
  if (step.remove) RemoveNodes(*step.remove, /*all_or_nothing=*/true, it);
}

void NodeScaleLoop::ReportDisruption(const DisruptionPlan& plan,
                                     const Iteration& it) {
  reporter_->DisruptionAllowances(plan);
  std::map<std::string, const LivePod*, std::less<>> pods;
  for (const BlockedCandidate& blocked : plan.blocked) {
    if (const LiveNode* node = it.Node(blocked.node)) {
      reporter_->NodeEvent(node->state.name, false, "DisruptionBlocked",
                           blocked.reason);
    }
    if (blocked.pod.empty()) continue;
    if (pods.empty()) {
      for (const LivePod& pod : it.pods) pods[pod.state.Key()] = &pod;
    }
    auto found = pods.find(blocked.pod);
    if (found != pods.end()) {
      reporter_->PodEvent(
          *found->second, false, "DisruptionBlocked",
          "node " + blocked.node + " is not disrupted: " + blocked.reason);
    }
  }
  blocked_ = plan.blocked;
}

}  // namespace propscaler::nodescale
