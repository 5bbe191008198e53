#include "nodescale/plan/provisioning_requests/provreq_validation.h"

#include <string>

#include "common/object_names.h"

namespace propscaler::nodescale {
namespace {

constexpr size_t kMaxPodSets = 32;
constexpr size_t kMaxParameters = 100;
constexpr size_t kMaxParameterValue = 255;

Status Bad(const std::string& field, const std::string& value,
           const std::string& rule) {
  return Status::Invalid(field + ": \"" + value + "\": " + rule);
}

Status CheckClass(const std::string& name) {
  const std::string field = "spec.provisioningClassName";
  if (name.empty()) return Status::Invalid(field + ": required");
  if (!IsDns1123Subdomain(name)) {
    return Bad(field, name,
               "must be a DNS subdomain of at most 253 characters");
  }
  if (name == "kubernetes.io" || name.ends_with(".kubernetes.io")) {
    return Bad(field, name, "the kubernetes.io suffix is reserved");
  }
  return Status::Ok();
}

Status CheckPodSets(const std::vector<kube::PodSet>& pod_sets) {
  if (pod_sets.empty() || pod_sets.size() > kMaxPodSets) {
    return Status::Invalid("spec.podSets: has " +
                           std::to_string(pod_sets.size()) +
                           " items: must have 1 to 32");
  }
  for (size_t i = 0; i < pod_sets.size(); ++i) {
    const std::string at = "spec.podSets[" + std::to_string(i) + "]";
    const kube::PodSet& pod_set = pod_sets[i];
    if (pod_set.pod_template.empty()) {
      return Status::Invalid(at + ".podTemplateRef.name: required");
    }
    if (!IsDns1123Subdomain(pod_set.pod_template)) {
      return Bad(at + ".podTemplateRef.name", pod_set.pod_template,
                 "must be a DNS subdomain of at most 253 characters");
    }
    if (pod_set.count < 1 || pod_set.count > INT32_MAX) {
      return Bad(at + ".count", std::to_string(pod_set.count),
                 "must be at least 1 (an int32)");
    }
  }
  return Status::Ok();
}

Status CheckParameters(const std::map<std::string, std::string>& parameters) {
  if (parameters.size() > kMaxParameters) {
    return Status::Invalid("spec.parameters: has " +
                           std::to_string(parameters.size()) +
                           " entries: at most 100");
  }
  for (const auto& [key, value] : parameters) {
    if (value.size() > kMaxParameterValue) {
      return Status::Invalid("spec.parameters." + key + ": " +
                             std::to_string(value.size()) +
                             " characters: at most 255");
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidateProvisioningRequest(const kube::ProvisioningRequest& request) {
  for (const Status& status :
       {CheckClass(request.class_name), CheckPodSets(request.pod_sets),
        CheckParameters(request.parameters)}) {
    if (!status.ok()) {
      return status.WithContext("ProvisioningRequest " + request.Key());
    }
  }
  return Status::Ok();
}

}  // namespace propscaler::nodescale
