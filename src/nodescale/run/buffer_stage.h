// CapacityBuffers in the node-scale loop: resolved every iteration (their
// PodTemplate or workload read, the chunks counted), their virtual pods
// added to the snapshot, which the scale-up provides room for and
// scale-down and disruption keep; after the scale-up, their status written
// where it changed.
#ifndef PROPSCALER_NODESCALE_RUN_BUFFER_STAGE_H_
#define PROPSCALER_NODESCALE_RUN_BUFFER_STAGE_H_

#include <string>
#include <vector>

#include "kube/client/client.h"
#include "nodescale/plan/buffers/buffer_demand.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class BufferStage {
 public:
  BufferStage(LoopContext context, const kube::ClusterStateClient* buffers);

  void Inject(LoopIteration* it);
  // Why the plan found no room for a buffer's chunks, once a buffer.
  void NoteUnfit(const ScaleUpPlan& plan, LoopIteration* it);
  void WriteStatuses(const LoopIteration& it);
  // Each buffer's line on /status.
  static std::vector<std::string> Lines(const LoopIteration& it);

 private:
  // it->buffers[index]: its chunk read, counted (at most `bound`), its
  // virtual pods added.
  void Resolve(size_t index, const ChunkBound& bound, LoopIteration* it);

  LoopContext c_;
  const kube::ClusterStateClient* buffers_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_BUFFER_STAGE_H_
