// CapacityBuffers in the node-scale loop: resolved every iteration (their
// PodTemplate or workload read, the chunks counted), their virtual pods put
// into the snapshot, and their status written when it changes.
#include <glog/logging.h>

#include <memory>

#include "nodescale/plan/buffers/buffer_conditions.h"
#include "nodescale/plan/buffers/buffer_demand.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_iteration.h"

namespace propscaler::nodescale {

void NodeScaleLoop::InjectBuffers(Iteration* it) {
  std::optional<ChunkBound> bound;
  for (kube::CapacityBuffer& buffer : state_->Buffers()) {
    // Other strategies are another provisioner's.
    if (!buffer.strategy.empty() &&
        buffer.strategy != kube::kActiveCapacityStrategy) {
      continue;
    }
    it->buffers.push_back({std::move(buffer)});
    if (!bound) bound = MaxBufferChunks(it->snapshot.nodes, it->groups);
    ResolveBuffer(it->buffers.size() - 1, *bound, it);
  }
}

void NodeScaleLoop::ResolveBuffer(size_t index, const ChunkBound& bound,
                                  Iteration* it) {
  BufferResolution* r = &it->buffers[index];
  const kube::CapacityBuffer& buffer = r->buffer;
  if (Status spec = CheckBufferSpec(buffer); !spec.ok()) {
    r->not_ready_reason = "InvalidSpec";
    r->message = spec.message();
    return;
  }
  Result<kube::BufferChunk> chunk = api_.cluster_state->GetBufferChunk(buffer);
  if (!chunk.ok()) {
    r->not_ready_reason = chunk.status().code() != StatusCode::kNotFound
                              ? "ResolutionFailed"
                          : buffer.pod_template.empty() ? "ScalableRefNotFound"
                                                        : "PodTemplateNotFound";
    r->message = chunk.status().message();
    return;
  }
  Result<int64_t> replicas =
      BufferReplicas(buffer, chunk->workload_replicas, chunk->pod.requests);
  if (!replicas.ok()) {
    r->not_ready_reason = "ResolutionFailed";
    r->message = replicas.status().message();
    return;
  }
  HoldChunks(*replicas, bound, r);
  r->chunk_template = buffer.pod_template;
  for (PodState& pod : BufferPods(buffer, chunk->pod, *r->replicas)) {
    it->buffer_of_pod[pod.Key()] = index;
    it->snapshot.pods.push_back(std::move(pod));
  }
}

void NodeScaleLoop::NoteUnfitBuffers(const ScaleUpPlan& plan, Iteration* it) {
  for (const UnschedulablePod& pod : plan.unschedulable) {
    auto found = it->buffer_of_pod.find(pod.pod);
    if (found == it->buffer_of_pod.end()) continue;
    BufferResolution& r = it->buffers[found->second];
    if (r.unfit++ > 0) continue;  // the chunks are alike: one says why
    for (const auto& [group, reason] : *pod.reasons) {
      r.unfit_reasons += " " + group + ": " + reason + ";";
    }
  }
}

void NodeScaleLoop::WriteBufferStatuses(const Iteration& it) {
  std::vector<NodeScaleAction> patches;
  for (const BufferResolution& r : it.buffers) {
    kube::BufferStatus want{r.replicas,
                            r.chunk_template,
                            {ReadyCondition(r), ProvisioningCondition(r)}};
    if (kube::StatusIsCurrent(r.buffer, want)) continue;
    patches.push_back(PatchBufferStatus{r.buffer, std::move(want)});
  }
  // A conflict: the buffer changed; the next iteration reads it again.
  executor_.Run(patches, ClusterViewOf(it, it.pods));
}

std::vector<std::string> NodeScaleLoop::BufferLines(const Iteration& it) {
  std::vector<std::string> lines;
  for (const BufferResolution& r : it.buffers) {
    const kube::BufferCondition provisioning = ProvisioningCondition(r);
    lines.push_back(r.buffer.Key() + ": " +
                    (r.replicas ? std::to_string(*r.replicas) + " chunks"
                                : std::string("unresolved")) +
                    "; " + provisioning.reason + ": " + provisioning.message);
  }
  return lines;
}

}  // namespace propscaler::nodescale
