// CapacityBuffers (autoscaling.x-k8s.io/v1beta1, the API Cluster Autoscaler
// and Karpenter implement): spare capacity kept ready for a number of
// "chunks", each shaped as a pod template. What node-scale mode reads of a
// buffer and of the object its chunk comes from, and the status it writes
// (their JSON: wire/capacity_buffer_json.h).
#ifndef PROPSCALER_KUBE_MODEL_CAPACITY_BUFFER_H_
#define PROPSCALER_KUBE_MODEL_CAPACITY_BUFFER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kube/model/node_scale_objects.h"
#include "kube/model/resources.h"

namespace propscaler::kube {

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
  // Its strategy is the active capacity one (the default): other
  // strategies are another provisioner's.
  bool ActiveCapacity() const {
    return strategy.empty() || strategy == kActiveCapacityStrategy;
  }
};

// The shape of one chunk: a PodTemplate's template, or a workload's
// spec.template with its spec.replicas (the base of `percentage`).
struct BufferChunk {
  PodState pod;
  std::optional<int64_t> workload_replicas;
};

// The status a buffer should have.
struct BufferStatus {
  std::optional<int64_t> replicas;
  std::string pod_template;  // status.podTemplateRef.name; "" for none
  std::vector<BufferCondition> conditions;  // last_transition ignored
};
// The status as it is stored already (nothing to write).
bool StatusIsCurrent(const CapacityBuffer& buffer, const BufferStatus& want);
// The condition of `type` among `conditions`; nullptr when absent.
const BufferCondition* FindCondition(
    const std::vector<BufferCondition>& conditions, const std::string& type);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_CAPACITY_BUFFER_H_
