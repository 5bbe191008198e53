// ProvisioningRequests (autoscaling.x-k8s.io/v1, the API Cluster Autoscaler
// serves and Kueue's ProvisioningRequest admission check creates): capacity
// asked for a set of pods before they are created, all or nothing. What
// node-scale mode reads of a request and the conditions it writes
// (../shared/reference/provisioning-request.md, section 1).
#ifndef PROPSCALER_KUBE_MODEL_PROVISIONING_REQUEST_H_
#define PROPSCALER_KUBE_MODEL_PROVISIONING_REQUEST_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/clock.h"

namespace propscaler::kube {

// The classes Cluster Autoscaler serves.
inline constexpr char kCheckCapacityClass[] =
    "check-capacity.autoscaling.x-k8s.io";
inline constexpr char kBestEffortAtomicClass[] =
    "best-effort-atomic-scale-up.autoscaling.x-k8s.io";
// A pod lands in a request's room through the annotation
// kConsumeProvisioningRequestAnnotation (kube/model/node_scale_objects.h).

// Condition types.
inline constexpr char kAccepted[] = "Accepted";
inline constexpr char kProvisioned[] = "Provisioned";
inline constexpr char kFailed[] = "Failed";
inline constexpr char kBookingExpired[] = "BookingExpired";

struct ProvReqCondition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::string reason;
  std::string message;
  TimePoint last_transition;
  bool operator==(const ProvReqCondition&) const = default;
};

struct PodSet {
  std::string pod_template;  // podTemplateRef.name, in the same namespace
  int64_t count = 0;
};

struct ProvisioningRequest {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string resource_version;
  int64_t generation = 0;
  TimePoint created;
  std::string class_name;  // spec.provisioningClassName
  std::vector<PodSet> pod_sets;
  std::map<std::string, std::string> parameters;
  std::vector<ProvReqCondition> conditions;

  std::string Key() const { return namespace_ + "/" + name; }
  // The condition of `type`; nullptr when absent.
  const ProvReqCondition* Condition(const std::string& type) const;
  // Whether the condition of `type` is present with status "True".
  bool Is(const std::string& type) const;
  // The pods it asks for, over every podSet.
  int64_t PodCount() const;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_PROVISIONING_REQUEST_H_
