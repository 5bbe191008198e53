#include "nodescale/plan/capacity_give_up.h"

namespace propscaler::nodescale {

CapacityGiveUp PlanCapacityGiveUp(
    const nodescale::NodeGroup& group,
    const std::vector<const kube::NodeState*>& registered) {
  CapacityGiveUp give_up;
  for (const kube::NodeState* node : registered) {
    if (!node->ready) give_up.unready.push_back(node);
  }
  const auto count = static_cast<int64_t>(registered.size());
  if (group.target_size > count) {
    give_up.target_decrease = group.target_size - count;
  }
  give_up.new_target = count - static_cast<int64_t>(give_up.unready.size());
  return give_up;
}

}  // namespace propscaler::nodescale
