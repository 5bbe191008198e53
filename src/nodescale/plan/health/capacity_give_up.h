// A group whose nodes did not become Ready within --max-node-provision-time
// gives that capacity up: its nodes still starting are deleted, the nodes
// requested that never registered are taken off its target, and it counts
// only the nodes that arrived (Ready or Unready) from then on; never below
// its minimum size (the never-registered ones may go below it with
// --force-delete-unregistered-nodes, as Cluster Autoscaler's flag). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_HEALTH_CAPACITY_GIVE_UP_H_
#define PROPSCALER_NODESCALE_PLAN_HEALTH_CAPACITY_GIVE_UP_H_

#include <cstdint>
#include <vector>

#include "kube/model/node_scale_objects.h"
#include "nodescale/domain/node_group.h"
#include "nodescale/plan/health/node_health.h"

namespace propscaler::nodescale {

struct RegisteredNode {
  const kube::NodeState* node = nullptr;
  Readiness readiness = Readiness::kReady;
};

struct CapacityGiveUp {
  std::vector<const kube::NodeState*> not_started;  // to delete
  int64_t target_decrease = 0;  // requested, never registered
  int64_t new_target = 0;       // the nodes that arrived
};

// How long the group's nodes have to become Ready: its own
// max-node-provision-time option, else the flag's.
Duration ProvisionTimeOf(const nodescale::NodeGroup& group, Duration flag);

// `registered`: the group's nodes as the API server has them.
CapacityGiveUp PlanCapacityGiveUp(const nodescale::NodeGroup& group,
                                  const std::vector<RegisteredNode>& registered,
                                  bool force_delete_unregistered = false);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_HEALTH_CAPACITY_GIVE_UP_H_
