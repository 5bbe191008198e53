// Cluster Autoscaler's scale-down in the node-scale loop, as Decide chose
// it (plan/decide.h): the unneeded nodes' timers kept, and its actions
// (ScaleDownActions: the soft taints due, bounded; the removals due as one
// set) handed to the executor, whose drain removes the nodes.
#ifndef PROPSCALER_NODESCALE_RUN_SCALE_DOWN_STAGE_H_
#define PROPSCALER_NODESCALE_RUN_SCALE_DOWN_STAGE_H_

#include <vector>

#include "nodescale/plan/decide.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class ScaleDownStage {
 public:
  explicit ScaleDownStage(LoopContext context);

  void Apply(const ScaleDownDecision& decision, LoopIteration* it);

 private:
  LoopContext c_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_SCALE_DOWN_STAGE_H_
