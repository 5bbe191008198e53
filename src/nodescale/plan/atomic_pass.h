// The best-effort-atomic scale-ups in flight (plan/provisioning_requests/
// atomic_scale_up.h), advanced one iteration: each done (every new node
// Ready), still in flight (a /status line), or given back: the nodes that
// never registered taken off their groups' targets, the ones that came
// handed to the drain, and its request told (NodesGivenBack). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_ATOMIC_PASS_H_
#define PROPSCALER_NODESCALE_PLAN_ATOMIC_PASS_H_

#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/provisioning_request.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/provisioning_requests/atomic_scale_up.h"

namespace propscaler::nodescale {

struct AtomicObservation {
  const SharedNodes* nodes = nullptr;
  const GroupOfNode* group_of = nullptr;
  const std::vector<Readiness>* readiness = nullptr;  // of each of `nodes`
  const std::vector<NodeGroup>* groups = nullptr;
  const std::vector<kube::ProvisioningRequest>* requests = nullptr;
  Duration max_node_provision_time{};
  TimePoint now;
};

struct AtomicGiveBack {
  std::string request;  // namespace/name
  std::string reason;   // for the log, the Event and the condition
  // DecreaseTarget of each part's nodes that never registered.
  std::vector<NodeScaleAction> decreases;
  // The nodes that came, for the drain (not all or nothing).
  std::vector<RemovalTarget> came;
  // The request as listed, when it still is, and its conditions.
  std::optional<kube::ProvisioningRequest> listed;
  std::vector<kube::ProvReqCondition> conditions;
};

struct AtomicAdvance {
  std::vector<AtomicScaleUp> in_flight;  // the memory's from now on
  std::vector<std::string> lines;        // /status, one a scale-up in flight
  std::vector<std::string> done;         // for the log
  std::vector<AtomicGiveBack> give_backs;
};

AtomicAdvance AdvanceAtomicScaleUps(std::vector<AtomicScaleUp> scale_ups,
                                    const AtomicObservation& observed);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_ATOMIC_PASS_H_
