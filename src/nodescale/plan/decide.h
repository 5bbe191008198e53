// Every decision of one node-scale iteration, from plain data: the
// scale-up for the pending pods; when it adds no node, what removes nodes:
// Cluster Autoscaler's scale-down (the unneeded nodes, their timers, the
// removals due now) or Karpenter's disruption plan. The loop builds the
// input from its stores and memory, executes what comes back (the
// provider's calls, the command and removal queues) and reports. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DECIDE_H_
#define PROPSCALER_NODESCALE_PLAN_DECIDE_H_

#include <optional>
#include <vector>

#include "common/clock.h"
#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/scale_down/removal_choice.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_down/scale_down_timers.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// Cluster Autoscaler's scale-down, as the loop has it in memory.
struct ScaleDownState {
  const ScaleDownConfig* config = nullptr;
  const ScaleDownTimers* timers = nullptr;
  RemovalsInFlight in_flight;
  ScaleDownParallelism parallelism;
};

// Karpenter's disruption, when a new command may be planned.
struct DisruptionState {
  const DisruptionInput* input = nullptr;
  const DisruptionOptions* options = nullptr;
};

struct DecideInput {
  const ClusterSnapshot* snapshot = nullptr;
  const std::vector<NodeGroup>* groups = nullptr;
  const ScaleUpMemory* memory = nullptr;
  const ScaleUpConfig* scale_up = nullptr;
  // Null: no scale-up this iteration (the expanders' config is broken).
  ExpanderChain* expander = nullptr;
  // Set when the provider makes nodes from NodePools over a catalogue: the
  // scale-up is then Karpenter's scheduler's (claim_scale_up.h), over
  // `groups` that include one per candidate.
  const NodePoolCatalogue* node_pools = nullptr;
  // At most one of the two; neither: nothing is removed this iteration.
  std::optional<ScaleDownState> scale_down;
  std::optional<DisruptionState> disruption;
  TimePoint now;
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

// Scale-down's part alone.
ScaleDownDecision DecideScaleDown(const ClusterSnapshot& snapshot,
                                  const std::vector<NodeGroup>& groups,
                                  const ScaleDownState& state, TimePoint now);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DECIDE_H_
