#include "kube/model/provisioning_request.h"

namespace propscaler::kube {

const ProvReqCondition* ProvisioningRequest::Condition(
    const std::string& type) const {
  for (const ProvReqCondition& condition : conditions) {
    if (condition.type == type) return &condition;
  }
  return nullptr;
}

bool ProvisioningRequest::Is(const std::string& type) const {
  const ProvReqCondition* condition = Condition(type);
  return condition != nullptr && condition->status == "True";
}

int64_t ProvisioningRequest::PodCount() const {
  int64_t count = 0;
  for (const PodSet& pod_set : pod_sets) count += pod_set.count;
  return count;
}

}  // namespace propscaler::kube
