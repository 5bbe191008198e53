// Every decision of one node-scale iteration, from plain data: the
// scale-up for the pending pods; when it adds no node, what removes nodes:
// Cluster Autoscaler's scale-down (the unneeded nodes, their timers, the
// removals due now) or Karpenter's disruption plan. DecideIteration
// (plan/iteration.h) hands in the snapshot, the settings and the memory
// (plan/loop_memory.h) and turns what comes back into the iteration's
// steps (ScaleUpActions, ScaleDownActions). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DECIDE_H_
#define PROPSCALER_NODESCALE_PLAN_DECIDE_H_

#include <optional>
#include <vector>

#include "common/clock.h"
#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/disruption_policy.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/node_scale_settings.h"
#include "nodescale/plan/scale_down/removal_choice.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_down/scale_down_timers.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct DecideInput {
  const ClusterSnapshot* snapshot = nullptr;
  const std::vector<NodeGroup>* groups = nullptr;
  const NodeScaleSettings* settings = nullptr;
  // What the loop remembers: the scale-up's (backed-off and unhealthy
  // groups, remembered templates) and scale-down's timers.
  const LoopMemory* memory = nullptr;
  // Null: no scale-up this iteration (the expanders' config is broken).
  ExpanderChain* expander = nullptr;
  // Set when the provider makes nodes from NodePools over a catalogue: the
  // scale-up is then Karpenter's scheduler's (claim_scale_up.h), over
  // `groups` that include one per candidate.
  const NodePoolCatalogue* node_pools = nullptr;
  // What removes nodes when the scale-up adds none (RemovalPathOf).
  RemovalPath removal = RemovalPath::kNone;
  // kScaleDown: what the drain holds, which the choice leaves alone.
  RemovalsInFlight in_flight;
  // kDisruption: null while no new command may be planned (one in flight,
  // a drain under way, budgets not listed).
  const DisruptionInput* disruption = nullptr;
  TimePoint now;
  // Where set, told where the scheduling simulation and each disruption
  // method's evaluation begin and end (decision_timer.h).
  DecisionTimer* timer = nullptr;
};

struct ScaleDownDecision {
  ScaleDownPlan plan;
  // The timers with this pass's unneeded nodes.
  ScaleDownTimers timers;
  RemovalChoice choice;
};

struct Decisions {
  ScaleUpPlan scale_up;
  // Only when the scale-up adds no node, as Cluster Autoscaler removes
  // nothing in a loop that scaled up.
  std::optional<ScaleDownDecision> scale_down;
  std::optional<DisruptionPlan> disruption;
};

Decisions Decide(const DecideInput& input);

// The plan's increases as actions, one each, in its order.
std::vector<NodeScaleAction> ScaleUpActions(const ScaleUpPlan& plan);

// The scale-down decision as actions: the soft taints due (within
// `budget`), then the removals due as one set for the drain.
std::vector<NodeScaleAction> ScaleDownActions(const ScaleDownDecision& decision,
                                              const SharedNodes& nodes,
                                              const SoftTaintBudget& budget);

// Scale-down's part alone: the timers in `memory` advanced, the removals
// due chosen.
ScaleDownDecision DecideScaleDown(const ClusterSnapshot& snapshot,
                                  const std::vector<NodeGroup>& groups,
                                  const NodeScaleSettings& settings,
                                  const ScaleDownTimers& timers,
                                  const RemovalsInFlight& in_flight,
                                  TimePoint now);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DECIDE_H_
