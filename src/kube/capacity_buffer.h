// CapacityBuffers (autoscaling.x-k8s.io/v1beta1, the API Cluster Autoscaler
// and Karpenter implement): spare capacity kept ready for a number of
// "chunks", each shaped as a pod template. What node-scale mode reads of a
// buffer and of the object its chunk comes from, and the status it writes.
#ifndef PROPSCALER_KUBE_CAPACITY_BUFFER_H_
#define PROPSCALER_KUBE_CAPACITY_BUFFER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "kube/list_watch.h"
#include "kube/node_scale_objects.h"
#include "kube/resources.h"

namespace propscaler::kube {

inline constexpr char kCapacityBufferApi[] =
    "/apis/autoscaling.x-k8s.io/v1beta1";
inline constexpr char kActiveCapacityStrategy[] =
    "buffer.x-k8s.io/active-capacity";

// spec.scalableRef: an object with a scale subresource.
struct ScalableRef {
  std::string api_group;  // "apps"
  std::string kind;       // "Deployment"
  std::string name;
};

struct BufferCondition {
  std::string type;    // ReadyForProvisioning, Provisioning
  std::string status;  // "True", "False"
  std::string reason;
  std::string message;
  std::string last_transition;  // RFC 3339, as stored
  bool operator==(const BufferCondition&) const = default;
};

struct CapacityBuffer {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string resource_version;
  int64_t generation = 0;
  std::string strategy;      // spec.provisioningStrategy; "" is the default
  std::string pod_template;  // spec.podTemplateRef.name
  std::optional<ScalableRef> scalable;
  std::optional<int64_t> replicas;
  std::optional<int64_t> percentage;
  std::optional<Resources> limits;
  // status as stored, so that a write that changes nothing is not sent.
  std::optional<int64_t> status_replicas;
  std::string status_pod_template;
  std::vector<BufferCondition> conditions;

  std::string Key() const { return namespace_ + "/" + name; }
};

ListWatchCodec<CapacityBuffer> CapacityBufferCodec();

// The shape of one chunk: a PodTemplate's template, or a workload's
// spec.template with its spec.replicas (the base of `percentage`).
struct BufferChunk {
  PodState pod;
  std::optional<int64_t> workload_replicas;
};
Result<BufferChunk> DecodePodTemplateChunk(std::string_view body);
Result<BufferChunk> DecodeWorkloadChunk(std::string_view body);

// Where a buffer's chunk is read: its PodTemplate, or its scalableRef (an
// apps Deployment, ReplicaSet or StatefulSet: an error names any other).
struct BufferChunkSource {
  std::string path;      // "/api/v1/namespaces/NS/podtemplates/NAME"
  std::string resource;  // "podtemplates", "deployments", ...
  Result<BufferChunk> (*decode)(std::string_view body) = nullptr;
};
Result<BufferChunkSource> ChunkSourceOf(const CapacityBuffer& buffer);
// The buffer's status subresource.
std::string BufferStatusPath(const CapacityBuffer& buffer);

// The status a buffer should have.
struct BufferStatus {
  std::optional<int64_t> replicas;
  std::string pod_template;  // status.podTemplateRef.name; "" for none
  std::vector<BufferCondition> conditions;  // last_transition ignored
};
// The status as it is stored already (nothing to write).
bool StatusIsCurrent(const CapacityBuffer& buffer, const BufferStatus& want);
// A merge patch of the status subresource: the conditions keep their
// lastTransitionTime where their status did not change, else `now`.
std::string EncodeBufferStatusPatch(const CapacityBuffer& buffer,
                                    const BufferStatus& want, TimePoint now);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CAPACITY_BUFFER_H_
