#include "nodescale/plan/buffers_pass.h"

#include <optional>
#include <utility>

#include "nodescale/plan/buffers/buffer_demand.h"

namespace propscaler::nodescale {
namespace {

// `r`'s buffer resolved from `chunk` (at most `bound` chunks held), its
// virtual pods added to `snapshot` and noted as `index`'s.
void Resolve(size_t index, const Result<kube::BufferChunk>& chunk,
             const ChunkBound& bound, BuffersPass* pass,
             ClusterSnapshot* snapshot) {
  BufferResolution* r = &pass->buffers[index];
  const kube::CapacityBuffer& buffer = r->buffer;
  if (Status spec = CheckBufferSpec(buffer); !spec.ok()) {
    r->not_ready_reason = "InvalidSpec";
    r->message = spec.message();
    return;
  }
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
    pass->buffer_of_pod[pod.Key()] = index;
    snapshot->pods.push_back(std::move(pod));
  }
}

}  // namespace

BuffersPass PlanBuffers(const std::vector<ObservedBuffer>& buffers,
                        const std::vector<NodeGroup>& groups,
                        ClusterSnapshot* snapshot) {
  BuffersPass pass;
  std::optional<ChunkBound> bound;
  for (const ObservedBuffer& observed : buffers) {
    pass.buffers.push_back({observed.buffer});
    if (!bound) bound = MaxBufferChunks(snapshot->nodes, groups);
    Resolve(pass.buffers.size() - 1, observed.chunk, *bound, &pass, snapshot);
  }
  return pass;
}

void BuffersPass::NoteUnfit(const ScaleUpPlan& plan) {
  for (const UnschedulablePod& pod : plan.unschedulable) {
    auto found = buffer_of_pod.find(pod.pod);
    if (found == buffer_of_pod.end()) continue;
    BufferResolution& r = buffers[found->second];
    if (r.unfit++ > 0) continue;  // the chunks are alike: one says why
    for (const auto& [group, reason] : *pod.reasons) {
      r.unfit_reasons += " " + group + ": " + reason + ";";
    }
  }
}

std::vector<NodeScaleAction> BuffersPass::StatusPatches() const {
  std::vector<NodeScaleAction> patches;
  for (const BufferResolution& r : buffers) {
    kube::BufferStatus want{r.replicas,
                            r.chunk_template,
                            {ReadyCondition(r), ProvisioningCondition(r)}};
    if (kube::StatusIsCurrent(r.buffer, want)) continue;
    patches.push_back(PatchBufferStatus{r.buffer, std::move(want)});
  }
  return patches;
}

std::vector<std::string> BuffersPass::Lines() const {
  std::vector<std::string> lines;
  for (const BufferResolution& r : buffers) {
    const kube::BufferCondition provisioning = ProvisioningCondition(r);
    lines.push_back(r.buffer.Key() + ": " +
                    (r.replicas ? std::to_string(*r.replicas) + " chunks"
                                : std::string("unresolved")) +
                    "; " + provisioning.reason + ": " + provisioning.message);
  }
  return lines;
}

}  // namespace propscaler::nodescale
