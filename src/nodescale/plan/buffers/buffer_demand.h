// What a CapacityBuffer asks of the planner: how many chunks, and the
// virtual pending pods that stand for them in the scale-up and scale-down
// simulations. Pure.
//
// The count (../shared/reference/karpenter-disruption.md, 3.4 and decision
// 3): the larger of `replicas` and `percentage` of the scalable's replicas,
// the percentage rounded up and at least 1 when both are above 0 (the API's
// text and Karpenter; Cluster Autoscaler floors), capped by how many chunks
// `limits` holds; `limits` alone: as many chunks as it holds.
#ifndef PROPSCALER_NODESCALE_PLAN_BUFFERS_BUFFER_DEMAND_H_
#define PROPSCALER_NODESCALE_PLAN_BUFFERS_BUFFER_DEMAND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "kube/model/capacity_buffer.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// The spec's shape, checked as the API's validation rules check it; an
// error names the buffer and what is wrong.
Status CheckBufferSpec(const kube::CapacityBuffer& buffer);

// How many chunks of `chunk_requests` (a pod's effective requests) the
// buffer wants; `scalable_replicas` is the scalableRef's spec.replicas.
Result<int64_t> BufferReplicas(const kube::CapacityBuffer& buffer,
                               std::optional<int64_t> scalable_replicas,
                               const Resources& chunk_requests);

// The most chunks a buffer is given virtual pods for, and why: no more
// than the pods every node and every node group grown to its max size can
// hold (pod slots of the largest node or declared template; 110, the
// kubelet's default, when none says), nor than the 150,000 pods of the
// largest cluster Kubernetes supports. Beyond that no chunk can be
// provisioned, and each would be a virtual pod in memory.
struct ChunkBound {
  int64_t chunks = 0;
  std::string why;
};
ChunkBound MaxBufferChunks(const std::vector<NodeState>& nodes,
                           const std::vector<NodeGroup>& groups);

// A pending copy of `shape` named `ns`/`name`, owned by `owner_kind`
// `owner_name`: the planners' stand-in for a pod that does not exist yet
// (a buffer's chunk, a ProvisioningRequest's pod).
PodState VirtualPod(const PodState& shape, const std::string& ns,
                    const std::string& name, const std::string& owner_kind,
                    const std::string& owner_name);

// `count` pending copies of `chunk`, named capacity-buffer-<name>-<i> (i
// from 1) in the buffer's namespace, as Cluster Autoscaler names its fake
// pods, and owned by the buffer.
std::vector<PodState> BufferPods(const kube::CapacityBuffer& buffer,
                                 const PodState& chunk, int64_t count);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_BUFFERS_BUFFER_DEMAND_H_
