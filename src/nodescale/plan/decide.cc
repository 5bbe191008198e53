#include "nodescale/plan/decide.h"

#include <set>
#include <string_view>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/claim_scale_up.h"

namespace propscaler::nodescale {

ScaleDownDecision DecideScaleDown(const ClusterSnapshot& snapshot,
                                  const std::vector<NodeGroup>& groups,
                                  const NodeScaleSettings& settings,
                                  const ScaleDownTimers& timers,
                                  const RemovalsInFlight& in_flight,
                                  TimePoint now) {
  ScaleDownPlan plan = PlanScaleDown(snapshot, groups, settings.scale_down);
  ScaleDownTimers next = timers;
  next.SetUnneeded(UnneededNodes(plan), now);
  RemovalChoice choice = ChooseRemovals(plan, next, in_flight,
                                        settings.scale_down_parallelism, now);
  return {std::move(plan), std::move(next), std::move(choice)};
}

Decisions Decide(const DecideInput& input) {
  Decisions decisions;
  const ScaleUpMemory& memory = input.memory->scale_up;
  const ScaleUpConfig& scale_up = input.settings->scale_up;
  if (input.node_pools != nullptr && !input.node_pools->pools.empty()) {
    if (input.timer != nullptr) input.timer->Begin();
    decisions.scale_up = PlanClaimScaleUp(*input.snapshot, *input.groups,
                                          memory, scale_up, *input.node_pools);
    if (input.timer != nullptr) input.timer->Scheduled();
  } else if (input.expander != nullptr) {
    decisions.scale_up = PlanScaleUp(*input.snapshot, *input.groups, memory,
                                     scale_up, input.expander);
  }
  if (!decisions.scale_up.increases.empty()) return decisions;
  if (input.removal == RemovalPath::kScaleDown) {
    decisions.scale_down =
        DecideScaleDown(*input.snapshot, *input.groups, *input.settings,
                        input.memory->timers, input.in_flight, input.now);
  } else if (input.removal == RemovalPath::kDisruption &&
             input.disruption != nullptr) {
    decisions.disruption = PlanDisruption(
        *input.disruption, input.settings->disruption_options, input.timer);
  }
  return decisions;
}

std::vector<NodeScaleAction> ScaleUpActions(const ScaleUpPlan& plan) {
  std::vector<NodeScaleAction> actions;
  actions.reserve(plan.increases.size());
  for (const GroupIncrease& increase : plan.increases) {
    actions.push_back(IncreaseSize{increase.group, increase.delta});
  }
  return actions;
}

std::vector<NodeScaleAction> ScaleDownActions(const ScaleDownDecision& decision,
                                              const SharedNodes& nodes,
                                              const SoftTaintBudget& budget) {
  std::set<std::string_view> removing;
  StartRemoval removal;
  for (const NodeRemoval& node : decision.choice.removals) {
    removing.insert(node.node);
    removal.targets.push_back({node.node, node.group});
  }
  std::vector<SoftTaintNode> soft;
  soft.reserve(nodes.size());
  for (const LiveNode& node : nodes) {
    soft.push_back({node.state.name,
                    HasTaint(node.state, kDeletionCandidateTaint),
                    decision.timers.IsUnneeded(node.state.name)});
  }
  SetSoftTaints taints{{}, budget};
  for (const SoftTaintChange& change : SoftTaintChanges(soft, removing)) {
    taints.changes.push_back({nodes[change.node].state.name, change.taint});
  }
  std::vector<NodeScaleAction> actions;
  if (!taints.changes.empty()) actions.push_back(std::move(taints));
  if (!removal.targets.empty()) actions.push_back(std::move(removal));
  return actions;
}

}  // namespace propscaler::nodescale
