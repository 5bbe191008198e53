#include "nodescale/plan/capacity_give_up.h"

namespace propscaler::nodescale {

CapacityGiveUp PlanCapacityGiveUp(
    const nodescale::NodeGroup& group,
    const std::vector<RegisteredNode>& registered) {
  CapacityGiveUp give_up;
  for (const RegisteredNode& node : registered) {
    if (node.readiness == Readiness::kNotStarted) {
      give_up.not_started.push_back(node.node);
    }
  }
  const auto count = static_cast<int64_t>(registered.size());
  if (group.target_size > count) {
    give_up.target_decrease = group.target_size - count;
  }
  give_up.new_target = count - static_cast<int64_t>(give_up.not_started.size());
  return give_up;
}

}  // namespace propscaler::nodescale
