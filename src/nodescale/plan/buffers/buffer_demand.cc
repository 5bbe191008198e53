#include "nodescale/plan/buffers/buffer_demand.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

namespace propscaler::nodescale {
namespace {

constexpr char kBufferKind[] = "CapacityBuffer";
constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

Status Invalid(const kube::CapacityBuffer& buffer, const std::string& what) {
  return Status::Invalid("CapacityBuffer " + buffer.Key() + ": " + what);
}

// floor(limit / request) over the resources both name; nullopt when they
// share none.
std::optional<int64_t> ChunksWithin(const Resources& limits,
                                    const Resources& request) {
  std::optional<int64_t> out;
  auto take = [&](int64_t limit, int64_t amount) {
    if (amount <= 0) return;  // the chunk does not use it
    const int64_t n = limit / amount;
    out = out ? std::min(*out, n) : n;
  };
  // A resource the limits do not name (or name at 0, which reads the same
  // here) does not cap.
  auto named = [](int64_t limit) { return limit > 0; };
  if (named(limits.cpu_millis)) take(limits.cpu_millis, request.cpu_millis);
  if (named(limits.memory_bytes)) {
    take(limits.memory_bytes, request.memory_bytes);
  }
  if (named(limits.ephemeral_storage_bytes)) {
    take(limits.ephemeral_storage_bytes, request.ephemeral_storage_bytes);
  }
  if (named(limits.pods)) take(limits.pods, request.pods);
  for (const auto& [name, limit] : limits.extended) {
    take(limit, request.Extended(name));
  }
  return out;
}

}  // namespace

Status CheckBufferSpec(const kube::CapacityBuffer& buffer) {
  const bool by_template = !buffer.pod_template.empty();
  if (by_template == buffer.scalable.has_value()) {
    return Invalid(buffer,
                   "define either podTemplateRef or scalableRef, but not both");
  }
  if (by_template && !buffer.replicas && !buffer.limits) {
    return Invalid(buffer, "a podTemplateRef buffer needs replicas or limits");
  }
  if (buffer.percentage && !buffer.scalable) {
    return Invalid(buffer, "percentage needs a scalableRef");
  }
  if (!buffer.replicas && !buffer.percentage && !buffer.limits) {
    return Invalid(buffer, "set replicas, percentage or limits");
  }
  // Both are int32 fields of at least 0; out of that range, a percentage
  // times the scalable's replicas would overflow.
  for (const auto& [field, value] :
       {std::pair{"replicas", buffer.replicas},
        std::pair{"percentage", buffer.percentage}}) {
    if (value && (*value < 0 || *value > kMaxInt32)) {
      return Invalid(buffer, std::string(field) + " " + std::to_string(*value) +
                                 " is not between 0 and " +
                                 std::to_string(kMaxInt32));
    }
  }
  return Status::Ok();
}

Result<int64_t> BufferReplicas(const kube::CapacityBuffer& buffer,
                               std::optional<int64_t> scalable_replicas,
                               const Resources& chunk_requests) {
  if (Status spec = CheckBufferSpec(buffer); !spec.ok()) return spec;
  std::optional<int64_t> wanted = buffer.replicas;
  if (buffer.percentage) {
    // A scalable's replicas are an int32 too.
    const int64_t base =
        std::clamp<int64_t>(scalable_replicas.value_or(0), 0, kMaxInt32);
    int64_t share = (*buffer.percentage * base + 99) / 100;
    if (*buffer.percentage > 0 && base > 0) share = std::max<int64_t>(share, 1);
    wanted = std::max(wanted.value_or(0), share);
  }
  if (!buffer.limits) return *wanted;
  const std::optional<int64_t> within =
      ChunksWithin(*buffer.limits, chunk_requests);
  if (!within) {
    if (wanted) return *wanted;
    return Invalid(buffer,
                   "limits name no resource its pods request, so they "
                   "bound no number of chunks");
  }
  return wanted ? std::min(*wanted, *within) : *within;
}

ChunkBound MaxBufferChunks(const std::vector<NodeState>& nodes,
                           const std::vector<NodeGroup>& groups) {
  constexpr int64_t kKubeletDefaultMaxPods = 110;
  constexpr int64_t kLargestSupportedClusterPods = 150'000;
  // Every term is clamped and the sum saturates just above the supported
  // size, so that no node's or group's numbers can overflow it.
  constexpr int64_t kMore = kLargestSupportedClusterPods + 1;
  int64_t slots = 0, largest = 0;
  const auto add = [&](int64_t pods) {
    slots = std::min(slots + std::clamp<int64_t>(pods, 0, kMore), kMore);
  };
  for (const NodeState& node : nodes) {
    add(node.allocatable.pods);
    largest = std::max(largest, node.allocatable.pods);
  }
  for (const NodeGroup& group : groups) {
    if (group.declared_template) {
      largest = std::max(largest, group.declared_template->allocatable.pods);
    }
  }
  largest = largest <= 0 ? kKubeletDefaultMaxPods : std::min(largest, kMore);
  for (const NodeGroup& group : groups) {
    add(std::clamp<int64_t>(group.max_size - group.target_size, 0, kMore) *
        largest);
  }
  if (slots > kLargestSupportedClusterPods) {
    return {kLargestSupportedClusterPods,
            "150000 pods, the largest cluster Kubernetes supports"};
  }
  return {slots, std::to_string(slots) +
                     " pods, what every node and every node group at its "
                     "max size can hold"};
}

PodState VirtualPod(const PodState& shape, const std::string& ns,
                    const std::string& name, const std::string& owner_kind,
                    const std::string& owner_name) {
  PodState pod = shape;
  pod.namespace_ = ns;
  pod.name = name;
  pod.node_name.clear();
  pod.terminated = false;
  pod.owner_kind = owner_kind;
  pod.owner_name = owner_name;
  return pod;
}

std::vector<PodState> BufferPods(const kube::CapacityBuffer& buffer,
                                 const PodState& chunk, int64_t count) {
  std::vector<PodState> pods;
  pods.reserve(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t i = 1; i <= count; ++i) {
    pods.push_back(
        VirtualPod(chunk, buffer.namespace_,
                   "capacity-buffer-" + buffer.name + "-" + std::to_string(i),
                   kBufferKind, buffer.name));
  }
  return pods;
}

}  // namespace propscaler::nodescale
