// The CapacityBuffers of one iteration, decided: each buffer provisioned
// actively resolved from its chunk as read (its PodTemplate or workload),
// its chunks counted (at most what the cluster could ever hold) and its
// virtual pods added to the snapshot, which the scale-up provides room for
// and scale-down and disruption keep; after the scale-up plan, why it
// found no room for a buffer's chunks (NoteUnfit), and each buffer's
// status patched where it changed (StatusPatches). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_BUFFERS_PASS_H_
#define PROPSCALER_NODESCALE_PLAN_BUFFERS_PASS_H_

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "kube/model/capacity_buffer.h"
#include "nodescale/plan/buffers/buffer_conditions.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// A buffer as listed and its chunk as read this iteration.
struct ObservedBuffer {
  kube::CapacityBuffer buffer;
  Result<kube::BufferChunk> chunk;
};

struct BuffersPass {
  std::vector<BufferResolution> buffers;
  std::map<std::string, size_t> buffer_of_pod;  // virtual pod key -> buffer

  // Why the plan found no room for a buffer's chunks, once a buffer.
  void NoteUnfit(const ScaleUpPlan& plan);
  // A PatchBufferStatus of each buffer whose status is not current.
  std::vector<NodeScaleAction> StatusPatches() const;
  // Each buffer's line on /status.
  std::vector<std::string> Lines() const;
};

// Adds the buffers' virtual pods to `snapshot`.
BuffersPass PlanBuffers(const std::vector<ObservedBuffer>& buffers,
                        const std::vector<NodeGroup>& groups,
                        ClusterSnapshot* snapshot);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_BUFFERS_PASS_H_
