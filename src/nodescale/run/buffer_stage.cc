#include "nodescale/run/buffer_stage.h"

#include <glog/logging.h>

#include <memory>

#include "nodescale/plan/buffers/buffer_conditions.h"
#include "nodescale/plan/buffers/buffer_demand.h"

namespace propscaler::nodescale {

BufferStage::BufferStage(LoopContext context,
                         const kube::ClusterStateClient* buffers)
    : c_(context), buffers_(buffers) {}

void BufferStage::Inject(LoopIteration* it) {
  std::optional<ChunkBound> bound;
  for (kube::CapacityBuffer& buffer : c_.state->Buffers()) {
    // Other strategies are another provisioner's.
    if (!buffer.strategy.empty() &&
        buffer.strategy != kube::kActiveCapacityStrategy) {
      continue;
    }
    it->buffers.push_back({std::move(buffer)});
    if (!bound) bound = MaxBufferChunks(it->snapshot.nodes, it->groups);
    Resolve(it->buffers.size() - 1, *bound, it);
  }
}

void BufferStage::Resolve(size_t index, const ChunkBound& bound,
                          LoopIteration* it) {
  BufferResolution* r = &it->buffers[index];
  const kube::CapacityBuffer& buffer = r->buffer;
  if (Status spec = CheckBufferSpec(buffer); !spec.ok()) {
    r->not_ready_reason = "InvalidSpec";
    r->message = spec.message();
    return;
  }
  Result<kube::BufferChunk> chunk = buffers_->GetBufferChunk(buffer);
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

void BufferStage::NoteUnfit(const ScaleUpPlan& plan, LoopIteration* it) {
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

void BufferStage::WriteStatuses(const LoopIteration& it) {
  std::vector<NodeScaleAction> patches;
  for (const BufferResolution& r : it.buffers) {
    kube::BufferStatus want{r.replicas,
                            r.chunk_template,
                            {ReadyCondition(r), ProvisioningCondition(r)}};
    if (kube::StatusIsCurrent(r.buffer, want)) continue;
    patches.push_back(PatchBufferStatus{r.buffer, std::move(want)});
  }
  // A conflict: the buffer changed; the next iteration reads it again.
  c_.executor->Run(patches, it.View());
}

std::vector<std::string> BufferStage::Lines(const LoopIteration& it) {
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
