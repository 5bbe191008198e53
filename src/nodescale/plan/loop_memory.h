// What node-scale mode's loop remembers from one iteration to the next, in
// one place, as plain data: backoffs, the capacity on its way, the
// scale-down timers, the ProvisioningRequests it acted on and its atomic
// scale-ups in flight, the pods' moves that consolidation waits on, and
// what /status says was done last. DecideIteration (plan/iteration.h)
// reads it and brings it up to date where no outcome is waited on, and
// AbsorbOutcomes from the outcomes of its actions; nothing else holds
// state between iterations but the executor's drain (run/).
#ifndef PROPSCALER_NODESCALE_PLAN_LOOP_MEMORY_H_
#define PROPSCALER_NODESCALE_PLAN_LOOP_MEMORY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/disruption_life.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/health/node_health.h"
#include "nodescale/plan/health/provision_tracker.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/provisioning_requests/atomic_scale_up.h"
#include "nodescale/plan/provisioning_requests/provreq_backoff.h"
#include "nodescale/plan/scale_down/scale_down_timers.h"
#include "nodescale/plan/scale_up/group_backoff.h"
#include "nodescale/plan/scale_up/scale_up.h"

namespace propscaler::nodescale {

struct ProvReqMemory {
  ProvReqBackoff backoff;
  // Requests this process wrote, by uid: the resourceVersion it read then
  // (not acted on again before the watch brings the write).
  std::map<std::string, std::string> acted;
  // Every (class, state) the metric has shown, so that one emptied reads 0.
  std::map<std::pair<std::string, std::string>, int64_t> counts_seen;
  std::vector<AtomicScaleUp> atomic_scale_ups;
  // Consuming pods already told why they trigger no scale-up, by key.
  std::set<std::string> consumers_told;
};

struct LoopMemory {
  LoopMemory(GroupBackoff backoff, ProvisionTracker provision,
             ScaleDownTimers timers, ProvReqBackoff provreq_backoff)
      : backoff(std::move(backoff)),
        provision(std::move(provision)),
        timers(std::move(timers)),
        requests{std::move(provreq_backoff), {}, {}, {}, {}} {}

  // The timers and /status told what the drain did.
  void NoteRemovals(const RemovalProgress& progress, TimePoint now);
  // The scale-up's groups to leave out this iteration: the backed-off ones
  // and, as Cluster Autoscaler's IsNodeGroupHealthy, those with too many
  // nodes not Ready beyond the ones still coming (`readiness`: of each of
  // `nodes`).
  void NoteGroupsForScaleUp(const SharedNodes& nodes,
                            const GroupOfNode& group_of,
                            const std::vector<Readiness>& readiness,
                            const std::vector<NodeGroup>& groups,
                            const NodeHealthConfig& health, TimePoint now);

  GroupBackoff backoff;
  ProvisionTracker provision;
  ScaleDownTimers timers;
  ScaleUpMemory scale_up;
  ProvReqMemory requests;
  DisruptionMemory disruption;
  // For /status: "what at when", or "never".
  std::string last_scale_up = "never";
  std::string last_scale_down = "never";
  // When scale-down last planned (Cluster Autoscaler's scaleDown probe).
  std::optional<TimePoint> last_scale_down_pass;
  // Logged once until it changes.
  std::string last_unhealthy;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_LOOP_MEMORY_H_
