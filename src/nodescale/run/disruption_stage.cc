#include "nodescale/run/disruption_stage.h"

#include <glog/logging.h>

#include <map>

namespace propscaler::nodescale {

DisruptionStage::DisruptionStage(LoopContext context)
    : c_(context),
      commands_(context.executor, context.reporter,
                context.options->disruption_validation_delay,
                context.options->max_node_provision_time,
                context.options->disruption_options) {}

std::set<std::string> DisruptionStage::Replaced() const {
  const std::vector<std::string> replaced = commands_.ReplacedNodes();
  return {replaced.begin(), replaced.end()};
}

void DisruptionStage::Disrupt(const std::optional<DisruptionPlan>& plan,
                              const std::optional<DisruptionInput>& input,
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
    if (input) Execute(commands_.Advance(&*input, view), *it);
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
