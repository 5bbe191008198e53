// Karpenter-style disruption in the node-scale loop: a command planned
// (plan/iteration.h decides it), its validation delay waited out and the
// command checked again, its replacement launched and waited for until
// Ready (the command queue), then the old nodes handed to the executor's
// drain as one all-or-nothing set (taint ToBeDeleted, evict through the
// Eviction API, delete).
#ifndef PROPSCALER_NODESCALE_RUN_DISRUPTION_STAGE_H_
#define PROPSCALER_NODESCALE_RUN_DISRUPTION_STAGE_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/run/command_queue.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class DisruptionStage {
 public:
  explicit DisruptionStage(LoopContext context);

  // The nodes the command in flight replaces, and whether one is.
  std::set<std::string> Replaced() const;
  bool InFlight() const { return commands_.InFlight(); }
  // The command in flight advanced (checked again on `input` while it
  // validates), else the plan's command proposed.
  void Disrupt(const std::optional<DisruptionPlan>& plan,
               const std::optional<DisruptionInput>& input, LoopIteration* it);
  // What waits, for /status.
  const std::vector<std::string>& Lines() const { return commands_.Lines(); }

 private:
  // Does what a pass of the command queue asks.
  void Execute(const CommandQueue::Step& step, const LoopIteration& it);
  void Report(const DisruptionPlan& plan, const LoopIteration& it);

  LoopContext c_;
  // The command between its choice and the drain: validating, or waiting
  // for its replacement.
  CommandQueue commands_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_DISRUPTION_STAGE_H_
