// The Karpenter half of NodeScaleLoop: plan a disruption command, wait out
// its validation delay and check it again, launch its replacement and wait
// for it to be Ready, then remove the old nodes as scale-down does (taint
// ToBeDeleted, evict through the Eviction API, delete).
#include <glog/logging.h>

#include <functional>

#include "common/metrics.h"
#include "nodescale/plan/live_snapshot.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {
namespace {

std::string Describe(const DisruptionCommand& command) {
  std::string out = std::string(DisruptionMethodName(command.method)) + " " +
                    std::string(command.action());
  for (const std::string& node : command.nodes) out += " " + node;
  if (command.replacement) {
    out += " -> " + std::to_string(command.replacement->count) + " x " +
           command.replacement->group;
  }
  return out;
}

}  // namespace

bool NodeScaleLoop::KarpenterDisruption() const {
  return options_.disruption == "karpenter" ||
         (options_.disruption == "auto" && !provider_->Pools().empty());
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
  if (Replacing()) {
    in_flight.insert(command_->command.nodes.begin(),
                     command_->command.nodes.end());
  }
  for (const NodeState& node : it.snapshot.nodes) {
    NodeLife life;
    auto found = live.find(node.name);
    life.created = found == live.end() ? it.now : found->second->created;
    life.last_pod_event = pod_events_[node.name].last_change;
    life.deleting = removals_.Removing(node.name) ||
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
  input.now = it.now;
  return input;
}

void NodeScaleLoop::Disrupt(Iteration* it) {
  NotePodEvents(*it);
  if (Replacing()) {
    TrackReplacement(it);
    return;
  }
  if (removals_.Draining()) return;  // a removal is still under way
  if (!it->pdbs) {
    // PodDisruptionBudgets not listed yet (or RBAC refuses them): no
    // disruption without knowing which pods may go.
    blocked_ = {};
    pending_commands_ = {
        "waiting for PodDisruptionBudgets to be listed before disrupting"};
    return;
  }
  const DisruptionInput input = DisruptionInputOf(*it);
  if (command_) {  // validating
    if (NextStep(*command_, 0, it->now) == CommandStep::kWait) return;
    const DisruptionCommand command = command_->command;
    command_.reset();
    pending_commands_.clear();
    Result<DisruptionCommand> validated =
        ValidateCommand(input, command, options_.disruption_options);
    if (!validated.ok()) {
      LOG(INFO) << "disruption: " << Describe(command)
                << " rejected: " << validated.status().message();
      GlobalMetrics().Add(
          "propscaler_disruption_failed_validations_total",
          {{"method", std::string(DisruptionMethodName(command.method))}}, 1);
      for (const std::string& name : command.nodes) {
        if (const LiveNode* node = it->Node(name)) {
          NodeEvent(node->state, false, "ConsolidationRejected",
                    validated.status().message());
        }
      }
      return;
    }
    StartCommand(*validated, it);
    return;
  }
  pending_commands_.clear();
  const DisruptionPlan plan =
      PlanDisruption(input, options_.disruption_options);
  ReportDisruption(plan, *it);
  if (!plan.command) return;
  command_ = AwaitValidation(*plan.command,
                             options_.disruption_validation_delay, it->now);
  if (command_) {
    const std::string due = kube::FormatMicroTime(command_->due);
    pending_commands_ = {Describe(*plan.command) + " (validating until " + due +
                         ")"};
    LOG(INFO) << "disruption: " << Describe(*plan.command)
              << " proposed; checked again at " << due;
    return;
  }
  StartCommand(*plan.command, it);
}

void NodeScaleLoop::ReportDisruption(const DisruptionPlan& plan,
                                     const Iteration& it) {
  Metrics& m = GlobalMetrics();
  for (const auto& [reason, count] : plan.eligible) {
    m.Set("propscaler_disruption_eligible_nodes",
          {{"reason", std::string(DisruptionReasonName(reason))}},
          static_cast<double>(count));
  }
  for (const PoolAllowanceReport& report : plan.allowances) {
    m.Set("propscaler_disruption_allowed_disruptions",
          {{"pool", report.pool},
           {"reason", std::string(DisruptionReasonName(report.reason))}},
          static_cast<double>(report.allowed));
    LOG_IF(WARNING, !report.error.empty()) << report.error;
  }
  std::map<std::string, const LivePod*, std::less<>> pods;
  for (const BlockedCandidate& blocked : plan.blocked) {
    if (const LiveNode* node = it.Node(blocked.node)) {
      NodeEvent(node->state, false, "DisruptionBlocked", blocked.reason);
    }
    if (blocked.pod.empty()) continue;
    if (pods.empty()) {
      for (const LivePod& pod : it.pods) pods[pod.state.Key()] = &pod;
    }
    auto found = pods.find(blocked.pod);
    if (found != pods.end()) {
      events_->Record(
          {PodRef(*found->second), false, "DisruptionBlocked",
           "node " + blocked.node + " is not disrupted: " + blocked.reason});
    }
  }
  blocked_ = plan.blocked;
}

void NodeScaleLoop::StartCommand(const DisruptionCommand& command,
                                 Iteration* it) {
  if (!may_act_()) return;
  LOG(INFO) << "disruption: starting " << Describe(command) << " (saves "
            << command.savings_per_hour << "/h)";
  GlobalMetrics().Add(
      "propscaler_disruption_decisions_total",
      {{"method", std::string(DisruptionMethodName(command.method))},
       {"action", std::string(command.action())}},
      1);
  if (!command.replacement) {
    pending_commands_.clear();
    RemoveForCommand(command, it);
    return;
  }
  const NodeGroup* group = it->Group(command.replacement->group);
  if (group == nullptr) return;
  Status launched = provider_->IncreaseSize(*group, command.replacement->count);
  if (!launched.ok()) {
    LOG(WARNING) << "disruption: launching the replacement failed: "
                 << launched.message();
    backoff_.Fail(group->name, it->now);
    pending_commands_.clear();
    return;
  }
  const std::map<std::string, int64_t> ready =
      ReadyNodesByGroup(it->nodes, it->group_of);
  auto found = ready.find(group->name);
  command_ = AwaitReplacement(command, found == ready.end() ? 0 : found->second,
                              options_.max_node_provision_time, it->now);
  pending_commands_ = {Describe(command) + " (waiting for the replacement)"};
  for (const std::string& name : command.nodes) {
    if (const LiveNode* node = it->Node(name)) {
      NodeEvent(node->state, false, "DisruptionLaunching",
                "launching " + std::to_string(command.replacement->count) +
                    " node(s) of group " + group->name + " to replace it (" +
                    std::string(DisruptionMethodName(command.method)) + ")");
    }
  }
}

void NodeScaleLoop::TrackReplacement(Iteration* it) {
  const InFlightCommand& replacing = *command_;
  const NewNodes& replacement = *replacing.command.replacement;
  const std::map<std::string, int64_t> ready =
      ReadyNodesByGroup(it->nodes, it->group_of);
  auto found = ready.find(replacement.group);
  const int64_t now_ready = found == ready.end() ? 0 : found->second;
  const CommandStep step = NextStep(replacing, now_ready, it->now);
  if (step == CommandStep::kWait) return;
  if (step == CommandStep::kRemove) {
    const DisruptionCommand command = replacing.command;
    command_.reset();
    pending_commands_.clear();
    RemoveForCommand(command, it);
    return;
  }
  LOG(WARNING) << "disruption: " << Describe(replacing.command)
               << " failed: the replacement was not Ready within "
                  "--max-node-provision-time; the old nodes stay";
  for (const std::string& name : replacing.command.nodes) {
    if (const LiveNode* node = it->Node(name)) {
      NodeEvent(node->state, true, "DisruptionFailed",
                "its replacement in group " + replacement.group +
                    " did not become Ready; the node stays");
    }
  }
  command_.reset();
  pending_commands_.clear();
}

void NodeScaleLoop::RemoveForCommand(const DisruptionCommand& command,
                                     Iteration* it) {
  std::vector<RemovalQueue::Target> targets;
  for (const std::string& name : command.nodes) {
    const LiveNode* node = it->Node(name);
    if (node == nullptr) continue;
    targets.push_back({name, it->group_of(node->state)});
  }
  RemoveNodes(targets, /*all_or_nothing=*/true, it);
}

}  // namespace propscaler::nodescale
