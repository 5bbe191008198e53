#include "nodescale/plan/health/capacity_give_up.h"

#include <algorithm>

namespace propscaler::nodescale {

Duration ProvisionTimeOf(const nodescale::NodeGroup& group, Duration flag) {
  return group.options.max_node_provision_time.value_or(flag);
}

CapacityGiveUp PlanCapacityGiveUp(const nodescale::NodeGroup& group,
                                  const std::vector<RegisteredNode>& registered,
                                  bool force_delete_unregistered) {
  CapacityGiveUp give_up;
  for (const RegisteredNode& node : registered) {
    if (node.readiness == Readiness::kNotStarted) {
      give_up.not_started.push_back(node.node);
    }
  }
  const auto count = static_cast<int64_t>(registered.size());
  // Never below the group's minimum (Cluster Autoscaler's cap on deleting
  // unregistered nodes): the replicas that never registered go first.
  int64_t allowed = std::max<int64_t>(0, group.target_size - group.min_size);
  const int64_t never_registered =
      std::max<int64_t>(0, group.target_size - count);
  give_up.target_decrease = force_delete_unregistered
                                ? never_registered
                                : std::min(never_registered, allowed);
  allowed = std::max<int64_t>(0, allowed - give_up.target_decrease);
  if (static_cast<int64_t>(give_up.not_started.size()) > allowed) {
    give_up.not_started.resize(allowed);
  }
  give_up.new_target = std::max(count, group.target_size) -
                       give_up.target_decrease -
                       static_cast<int64_t>(give_up.not_started.size());
  return give_up;
}

}  // namespace propscaler::nodescale
