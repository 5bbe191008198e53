// Karpenter-style disruption in the node-scale loop: a command planned
// (plan/disruption/), its validation delay waited out and the command
// checked again, its replacement launched and waited for until Ready (the
// command queue), then the old nodes handed to the executor's drain as one
// all-or-nothing set (taint ToBeDeleted, evict through the Eviction API,
// delete). Also what consolidation waits on: each node's last pod event
// and whether it was ever Ready.
#ifndef PROPSCALER_NODESCALE_RUN_DISRUPTION_STAGE_H_
#define PROPSCALER_NODESCALE_RUN_DISRUPTION_STAGE_H_

#include <optional>
#include <string>
#include <vector>

#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/disruption_life.h"
#include "nodescale/provider/provider.h"
#include "nodescale/run/command_queue.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class DisruptionStage {
 public:
  DisruptionStage(LoopContext context, const Provider* provider);

  // What removes nodes this iteration (--scale-down-enabled, --disruption,
  // and whether the provider declares pools).
  RemovalPath Path() const;
  // Notes the pods' moves (plan/disruption_life.h); whether a new command
  // may be planned now.
  bool MayPlan(const LoopIteration& it);
  DisruptionInput InputOf(const LoopIteration& it) const;
  // The command in flight advanced, else the plan's command proposed.
  void Disrupt(const std::optional<DisruptionPlan>& plan, LoopIteration* it);
  // What waits, for /status.
  const std::vector<std::string>& Lines() const { return commands_.Lines(); }

 private:
  // Does what a pass of the command queue asks.
  void Execute(const CommandQueue::Step& step, const LoopIteration& it);
  void Report(const DisruptionPlan& plan, const LoopIteration& it);

  LoopContext c_;
  const Provider* provider_;
  // The command between its choice and the drain: validating, or waiting
  // for its replacement.
  CommandQueue commands_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_DISRUPTION_STAGE_H_
