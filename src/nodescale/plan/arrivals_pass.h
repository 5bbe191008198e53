// Nodes on their way in, decided for one iteration: each node's readiness
// (plan/health/node_health.h: Ready, NotStarted or Unready, with its
// group's --max-node-startup-time, startup taints and, with
// --enable-csi-node-aware-scheduling, its CSI drivers against the group's
// remembered template), and each group's asked-for capacity followed
// (plan/health/provision_tracker.h): a group whose nodes are not Ready
// within --max-node-provision-time is backed off and that capacity given
// up (plan/health/capacity_give_up.h): its never-started nodes deleted and
// the replicas that never registered taken off its target. Pure: the
// memory's tracker and backoff are brought up to date, the rest comes back.
#ifndef PROPSCALER_NODESCALE_PLAN_ARRIVALS_PASS_H_
#define PROPSCALER_NODESCALE_PLAN_ARRIVALS_PASS_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/volumes.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/node_scale_settings.h"

namespace propscaler::nodescale {

struct ArrivalsObservation {
  const SharedNodes* nodes = nullptr;
  const std::vector<NodeGroup>* groups = nullptr;
  const GroupOfNode* group_of = nullptr;
  // The CSINodes' limits; null when not listed.
  const kube::VolumeObjects* volumes = nullptr;
  // Whether this process may write (it leads): a follower gives nothing up.
  bool may_act = false;
  TimePoint now;
};

// One group's capacity given up.
struct CapacityGivenUp {
  std::string group;
  Duration within{};  // its provision time
  TimePoint backed_off_until;
  // DeleteNodes of its never-started nodes, then DecreaseTarget by
  // `target_decrease` when any never registered; all or nothing.
  std::vector<NodeScaleAction> actions;
  int64_t target_decrease = 0;
  int64_t new_target = 0;
};

struct Arrivals {
  // Of each node, without the ones in `removed`.
  std::vector<Readiness> readiness;
  std::vector<CapacityGivenUp> given_up;
  // The nodes deleted (when the process may act): out of the iteration.
  std::set<std::string> removed;
};

Arrivals PlanArrivals(const ArrivalsObservation& observed,
                      const NodeScaleSettings& settings, LoopMemory* memory);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_ARRIVALS_PASS_H_
