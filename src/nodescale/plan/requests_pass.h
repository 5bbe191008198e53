// The ProvisioningRequests of one iteration (--enable-provisioning-
// requests), decided: the pending pods that consume a request taken out of
// the snapshot (each told once, at most 50 a loop, why it triggers no
// scale-up); each request's todo (provisioning_requests/provreq_pass.h) as
// actions: its conditions written, or it deleted; the room of each
// provisioned one booked (its pods first among the pending pods, so that
// no other pod takes it); the due check-capacity requests checked in one
// batch on the nodes there are and those coming, within the batch's size
// and timebox (`timer` measures it); and the due best-effort-atomic one
// taken, its pods built, for the atomic scale-up (AtomicScaleUpOf). The
// requests' pods come from the PodTemplates as listed; while they are not
// listed, every request waits. Pure but for `timer`.
#ifndef PROPSCALER_NODESCALE_PLAN_REQUESTS_PASS_H_
#define PROPSCALER_NODESCALE_PLAN_REQUESTS_PASS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/provisioning_request.h"
#include "kube/model/request_pod_template.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/disruption/decision_timer.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/node_scale_settings.h"
#include "nodescale/plan/provisioning_requests/provreq_atomic.h"

namespace propscaler::nodescale {

struct RequestsInput {
  const std::vector<kube::ProvisioningRequest>* requests = nullptr;
  const std::optional<kube::PodTemplateMap>* templates = nullptr;
  const std::vector<NodeGroup>* groups = nullptr;
  bool may_act = false;  // a follower writes and tells nothing
  TimePoint now;
  DecisionTimer* timer = nullptr;
};

// A condition write of the pass, and what its success means for the
// memory and the report.
struct RequestWrite {
  enum class Then {
    kNothing,
    kProvisioned,  // its room found: its backoff forgotten, the metric
    kBackOff,      // not found: checked again after the backoff
  };
  size_t action = 0;  // in RequestsPass::actions
  kube::ProvisioningRequest request;
  Then then = Then::kNothing;
};

// The due best-effort-atomic request with its pods.
struct AtomicRequest {
  kube::ProvisioningRequest request;
  std::vector<PodState> pods;
};

struct RequestsPass {
  std::vector<NodeScaleAction> actions;  // in order
  std::vector<RequestWrite> writes;      // one per WriteRequestConditions
  // Each request: "namespace/name (class): where it stands".
  std::vector<std::string> lines;
  // Consuming pods to tell now (NotTriggerScaleUp): key -> ns/request.
  std::map<std::string, std::string> tell;
  std::vector<std::string> log;  // what was checked and why, for the log
  std::optional<AtomicRequest> atomic;
  bool listed = false;  // the templates were: the counts are current
};

// Takes the consuming pods out of `snapshot`, books the rooms found and
// held in it; the memory's backoffs, consumers told and counts seen
// brought up to date where no outcome is waited on.
RequestsPass PlanRequests(const RequestsInput& input,
                          const NodeScaleSettings& settings,
                          ClusterSnapshot* snapshot, LoopMemory* memory);

// The atomic request's scale-up, decided: its pods placed all or nothing;
// either the conditions to write now (no increase: it fits as the cluster
// is, or it cannot), or the increases, all or nothing, then its
// Provisioned write.
struct AtomicScaleUpDecision {
  kube::ProvisioningRequest request;
  AtomicOutcome outcome;
  // With increases: each group's nodes before it (an increase of an
  // unknown group is left out), and which of the plan's increases each
  // part is.
  std::vector<AtomicScaleUp::Part> parts;
  std::vector<size_t> part_increase;
  std::vector<NodeScaleAction> actions;
  std::optional<RequestWrite> write;  // in `actions`, last
};

// `snapshot` gets the request's pods back out; its room booked first when
// it fits as the cluster is.
AtomicScaleUpDecision AtomicScaleUpOf(
    AtomicRequest atomic, const std::vector<NodeGroup>& groups,
    const SharedNodes& nodes, const GroupOfNode& group_of,
    const LoopMemory& memory, const NodeScaleSettings& settings,
    ExpanderChain* expander, TimePoint now, ClusterSnapshot* snapshot);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_REQUESTS_PASS_H_
