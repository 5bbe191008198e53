// One loop's pass over the ProvisioningRequests, decided: the pending pods
// that consume a request taken out of the plan (they never trigger a
// scale-up of their own: the request's room, or its nodes, are theirs);
// then what to do with each request (its verdict from provreq_lifecycle.h,
// the check-capacity batch's room, a request written and not yet seen
// again left alone), its line for /status, and the metric's count of
// requests by class and state. The loop does what each says: reads the
// request's PodTemplates, writes or deletes, checks. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_PASS_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_PASS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "kube/model/provisioning_request.h"
#include "nodescale/plan/provisioning_requests/check_capacity_batch.h"
#include "nodescale/plan/provisioning_requests/provreq_backoff.h"
#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct ConsumingPods {
  // Scheduled consuming pods, by namespace/request.
  std::map<std::string, int64_t> scheduled;
  // Pending ones: pod key -> namespace/request.
  std::map<std::string, std::string> waiting;
};

// Takes the pending consuming pods out of `pods`; counts the scheduled ones.
ConsumingPods TakeOutConsumingPods(PodList* pods);

struct ProvReqTodo {
  enum class Kind {
    kNothing,
    kWrite,   // verdict.conditions
    kDelete,  // and forget its backoff
    kBook,    // its pods (verdict.booked_pods) first among the pending
    kAtomic,  // due for the atomic scale-up (one a loop: the first whose
              // pods can be built)
    kCheck,   // in this loop's check-capacity batch
  };
  const kube::ProvisioningRequest* request = nullptr;
  Kind kind = Kind::kNothing;
  ProvReqVerdict verdict;
  std::string line;  // "namespace/name (class): why"
};

struct ProvReqPass {
  std::vector<ProvReqTodo> todo;  // one per request, in their order
  // Requests by (class, state): pending, provisioned, done, failed,
  // unsupported.
  std::map<std::pair<std::string, std::string>, int64_t> counts;
};

// `consumed`: scheduled consuming pods by namespace/request; `acted`: by
// uid, the resourceVersion of each request this process wrote.
ProvReqPass PlanProvisioningRequests(
    const std::vector<kube::ProvisioningRequest>& requests,
    const std::map<std::string, int64_t>& consumed,
    const std::map<std::string, std::string>& acted,
    const ProvReqBackoff& backoff, const ProvReqOptions& options,
    const CheckCapacityBatch& batch, TimePoint now);

// The metric's states, each shown (0 when emptied) once a class had one.
inline constexpr const char* kProvReqStates[] = {
    "pending", "provisioned", "done", "failed", "unsupported"};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_PASS_H_
