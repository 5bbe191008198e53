// What a CapacityBuffer asks of the planner: how many chunks, and the
// virtual pending pods that stand for them in the scale-up and scale-down
// simulations. Pure.
//
// The count (../shared/reference/karpenter-disruption.md, 3.4 and decision
// 3): the larger of `replicas` and `percentage` of the scalable's replicas,
// the percentage rounded up and at least 1 when both are above 0 (the API's
// text and Karpenter; Cluster Autoscaler floors), capped by how many chunks
// `limits` holds; `limits` alone: as many chunks as it holds.
#ifndef PROPSCALER_NODESCALE_PLAN_BUFFER_DEMAND_H_
#define PROPSCALER_NODESCALE_PLAN_BUFFER_DEMAND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "kube/capacity_buffer.h"
#include "nodescale/plan/snapshot.h"

namespace propscaler::nodescale {

// The spec's shape, checked as the API's validation rules check it; an
// error names the buffer and what is wrong.
Status CheckBufferSpec(const kube::CapacityBuffer& buffer);

// How many chunks of `chunk_requests` (a pod's effective requests) the
// buffer wants; `scalable_replicas` is the scalableRef's spec.replicas.
Result<int64_t> BufferReplicas(const kube::CapacityBuffer& buffer,
                               std::optional<int64_t> scalable_replicas,
                               const Resources& chunk_requests);

// `count` pending copies of `chunk`, named capacity-buffer-<name>-<i> (i
// from 1) in the buffer's namespace, as Cluster Autoscaler names its fake
// pods, and owned by the buffer.
std::vector<PodState> BufferPods(const kube::CapacityBuffer& buffer,
                                 const PodState& chunk, int64_t count);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_BUFFER_DEMAND_H_
