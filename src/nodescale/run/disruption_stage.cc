#include "nodescale/run/disruption_stage.h"

#include <glog/logging.h>

#include <functional>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {

DisruptionStage::DisruptionStage(LoopContext context, const Provider* provider)
    : c_(context),
      provider_(provider),
      commands_(context.executor, context.reporter,
                context.options->disruption_validation_delay,
                context.options->max_node_provision_time,
                context.options->disruption_options) {}

RemovalPath DisruptionStage::Path() const {
  return RemovalPathOf(c_.options->scale_down_enabled, c_.options->disruption,
                       !provider_->Pools().empty());
}

void DisruptionStage::NotePodEvents(const LoopIteration& it) {
  std::map<std::string, uint64_t> fingerprints;
  for (const LivePod& pod : it.pods) {
    if (pod.state.node_name.empty() || IsDaemonSetPod(pod.state)) continue;
    fingerprints[pod.state.node_name] +=
        std::hash<std::string>{}(pod.uid + pod.state.Key()) +
        (pod.state.terminated ? 1 : 0);
  }
  std::map<std::string, DisruptionMemory::PodEvents> next;
  for (const LiveNode& node : it.nodes) {
    const std::string& name = node.state.name;
    if (node.state.ready) c_.memory->disruption.seen_ready.insert(name);
    const uint64_t fingerprint = fingerprints[name];
    auto found = c_.memory->disruption.pod_events.find(name);
    if (found == c_.memory->disruption.pod_events.end()) {
      next[name] = {fingerprint,
                    node.created == TimePoint() ? it.now : node.created};
    } else if (found->second.fingerprint != fingerprint) {
      next[name] = {fingerprint, it.now};
    } else {
      next[name] = found->second;
    }
  }
  c_.memory->disruption.pod_events = std::move(next);
  std::erase_if(c_.memory->disruption.seen_ready, [&](const std::string& name) {
    return !c_.memory->disruption.pod_events.contains(name);
  });
}

DisruptionInput DisruptionStage::InputOf(const LoopIteration& it) {
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
    life.last_pod_event =
        c_.memory->disruption.pod_events[node.name].last_change;
    life.deleting = c_.executor->drain().Removing(node.name) ||
                    in_flight.contains(node.name) ||
                    HasTaint(node, kToBeDeletedTaint);
    life.initialized = c_.memory->disruption.seen_ready.contains(node.name);
    input.life.push_back(life);
  }
  std::set<std::string> in_snapshot;
  for (const NodeState& node : it.snapshot.nodes) in_snapshot.insert(node.name);
  for (const LiveNode& node : it.nodes) {
    const std::string group = it.group_of(node.state);
    if (!group.empty() && !node.state.ready &&
        c_.memory->disruption.seen_ready.contains(node.state.name) &&
        !in_snapshot.contains(node.state.name)) {
      ++input.not_ready_nodes[group];
    }
  }
  input.groups = it.groups;
  input.pools = provider_->Pools();
  input.group_priority = GroupPriorities(it.groups, it.priorities);
  input.backed_off_groups = c_.memory->backoff.BackedOffGroups(it.now);
  input.taints = c_.options->scale_up.taints;
  input.csi_node_aware_scheduling =
      c_.options->scale_up.csi_node_aware_scheduling;
  input.now = it.now;
  return input;
}

bool DisruptionStage::MayPlan(const LoopIteration& it) {
  NotePodEvents(it);
  return !commands_.InFlight() && !c_.executor->drain().Draining() &&
         it.pdbs.has_value();
}

void DisruptionStage::Disrupt(const std::optional<DisruptionPlan>& plan,
                              LoopIteration* it) {
  const ClusterView view = it->View();
  if (commands_.Replacing()) {
    Execute(commands_.Advance(nullptr, view), *it);
    return;
  }
  if (c_.executor->drain().Draining()) return;  // a removal is still under way
  if (!it->pdbs) {
    // PodDisruptionBudgets not listed yet (or RBAC refuses them): no
    // disruption without knowing which pods may go.
    c_.memory->disruption.blocked = {};
    commands_.WaitFor(
        "waiting for PodDisruptionBudgets to be listed before disrupting");
    return;
  }
  if (commands_.InFlight()) {  // validating
    const DisruptionInput input = InputOf(*it);
    Execute(commands_.Advance(&input, view), *it);
    return;
  }
  if (!plan) return;
  Report(*plan, *it);
  Execute(commands_.Propose(plan->command, view), *it);
}

void DisruptionStage::Execute(const CommandQueue::Step& step,
                              const LoopIteration& it) {
  if (!step.failed_group.empty()) {
    c_.memory->backoff.Fail(
        step.failed_group, it.now,
        {"cloudProviderError",
         "the replacement's nodes were refused or did not come"});
  }
  if (step.remove) {
    const ActionOutcome outcome = c_.executor->Run(*step.remove, it.View());
    c_.memory->NoteRemovals(outcome.removal, it.now);
  }
}

void DisruptionStage::Report(const DisruptionPlan& plan,
                             const LoopIteration& it) {
  c_.reporter->DisruptionAllowances(plan);
  std::map<std::string, const LivePod*, std::less<>> pods;
  for (const BlockedCandidate& blocked : plan.blocked) {
    if (const LiveNode* node = it.Node(blocked.node)) {
      c_.reporter->NodeEvent(node->state.name, false, "DisruptionBlocked",
                             blocked.reason);
    }
    if (blocked.pod.empty()) continue;
    if (pods.empty()) {
      for (const LivePod& pod : it.pods) pods[pod.state.Key()] = &pod;
    }
    auto found = pods.find(blocked.pod);
    if (found != pods.end()) {
      c_.reporter->PodEvent(
          *found->second, false, "DisruptionBlocked",
          "node " + blocked.node + " is not disrupted: " + blocked.reason);
    }
  }
  c_.memory->disruption.blocked = plan.blocked;
}

}  // namespace propscaler::nodescale
