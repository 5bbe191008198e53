// Cluster Autoscaler's scale-down in the node-scale loop, as Decide chose
// it (plan/decide.h): the unneeded nodes' timers kept, their soft taints
// put on and taken off (bounded: plan/scale_down/soft_taints.h), and the
// removals due handed to the executor's drain.
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
  // Nodes chosen for removal in this pass get ToBeDeleted instead.
  void UpdateCandidateTaints(const LoopIteration& it,
                             const std::vector<NodeRemoval>& removing);

  LoopContext c_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_SCALE_DOWN_STAGE_H_
