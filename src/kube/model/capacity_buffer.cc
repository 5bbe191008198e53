#include "kube/model/capacity_buffer.h"

#include <algorithm>

namespace propscaler::kube {

const BufferCondition* FindCondition(
    const std::vector<BufferCondition>& conditions, const std::string& type) {
  for (const BufferCondition& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

bool StatusIsCurrent(const CapacityBuffer& buffer, const BufferStatus& want) {
  if (buffer.status_replicas != want.replicas ||
      buffer.status_pod_template != want.pod_template) {
    return false;
  }
  return std::all_of(want.conditions.begin(), want.conditions.end(),
                     [&](const BufferCondition& c) {
                       const BufferCondition* stored =
                           FindCondition(buffer.conditions, c.type);
                       return stored != nullptr && stored->status == c.status &&
                              stored->reason == c.reason &&
                              stored->message == c.message;
                     });
}

}  // namespace propscaler::kube
