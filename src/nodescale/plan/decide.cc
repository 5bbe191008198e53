#include "nodescale/plan/decide.h"

#include "nodescale/plan/claim_scale_up.h"

namespace propscaler::nodescale {

ScaleDownDecision DecideScaleDown(const ClusterSnapshot& snapshot,
                                  const std::vector<NodeGroup>& groups,
                                  const ScaleDownState& state, TimePoint now) {
  ScaleDownPlan plan = PlanScaleDown(snapshot, groups, *state.config);
  ScaleDownTimers timers = *state.timers;
  timers.SetUnneeded(UnneededNodes(plan), now);
  RemovalChoice choice =
      ChooseRemovals(plan, timers, state.in_flight, state.parallelism, now);
  return {std::move(plan), std::move(timers), std::move(choice)};
}

Decisions Decide(const DecideInput& input) {
  Decisions decisions;
  if (input.node_pools != nullptr && !input.node_pools->pools.empty()) {
    decisions.scale_up =
        PlanClaimScaleUp(*input.snapshot, *input.groups, *input.memory,
                         *input.scale_up, *input.node_pools);
  } else if (input.expander != nullptr) {
    decisions.scale_up =
        PlanScaleUp(*input.snapshot, *input.groups, *input.memory,
                    *input.scale_up, input.expander);
  }
  if (!decisions.scale_up.increases.empty()) return decisions;
  if (input.scale_down) {
    decisions.scale_down = DecideScaleDown(*input.snapshot, *input.groups,
                                           *input.scale_down, input.now);
  } else if (input.disruption) {
    decisions.disruption =
        PlanDisruption(*input.disruption->input, *input.disruption->options);
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
