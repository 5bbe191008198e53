#include "nodescale/run/scale_down_stage.h"

#include <glog/logging.h>

namespace propscaler::nodescale {

ScaleDownStage::ScaleDownStage(LoopContext context) : c_(context) {}

void ScaleDownStage::Apply(const ScaleDownDecision& decision,
                           LoopIteration* it) {
  c_.memory->timers = decision.timers;
  c_.memory->last_scale_down_pass = it->now;
  if (decision.choice.removals.empty()) {
    VLOG(1) << "scale-down: " << decision.choice.waiting;
  }
  for (const ActionOutcome& outcome : c_.executor->Run(
           ScaleDownActions(decision, it->nodes, c_.options->soft_taints),
           it->View())) {
    c_.memory->NoteRemovals(outcome.removal, it->now);
  }
}

}  // namespace propscaler::nodescale
