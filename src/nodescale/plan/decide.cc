#include "nodescale/plan/decide.h"

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
    decisions.scale_up = PlanClaimScaleUp(*input.snapshot, *input.groups,
                                          memory, scale_up, *input.node_pools);
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
    decisions.disruption =
        PlanDisruption(*input.disruption, input.settings->disruption_options);
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

}  // namespace propscaler::nodescale
