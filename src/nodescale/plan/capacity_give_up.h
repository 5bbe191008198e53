// A group whose nodes did not become Ready within --max-node-provision-time
// gives that capacity up: its nodes that are not Ready are deleted, the
// nodes requested that never registered are taken off its target, and it
// counts only its Ready nodes from then on. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_CAPACITY_GIVE_UP_H_
#define PROPSCALER_NODESCALE_PLAN_CAPACITY_GIVE_UP_H_

#include <cstdint>
#include <vector>

#include "kube/model/node_scale_objects.h"
#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

struct CapacityGiveUp {
  std::vector<const kube::NodeState*> unready;  // to delete
  int64_t target_decrease = 0;                  // requested, never registered
  int64_t new_target = 0;                       // the Ready nodes left
};

// `registered`: the group's nodes as the API server has them.
CapacityGiveUp PlanCapacityGiveUp(
    const nodescale::NodeGroup& group,
    const std::vector<const kube::NodeState*>& registered);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CAPACITY_GIVE_UP_H_
