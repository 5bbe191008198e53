// What becomes of each ProvisioningRequest in a loop, as Cluster
// Autoscaler's provisioning-request processor and injector decide it
// (../shared/reference/provisioning-request.md, sections 2 and 6), and the
// conditions written for it. Pure: the caller passes the time, the
// request's backoff and how many of its pods already run.
//
// In order: a class propscaler does not serve is left alone; an invalid
// spec fails; a request whose Provisioned or Failed condition last changed
// over 7 days ago is deleted; a failed one is done; a provisioned one holds
// its room (booked) until 10 minutes after it was provisioned (then
// BookingExpired), or until pods consuming it run in its full count
// (BookingExpired, CapacityBookingConsumed; Cluster Autoscaler books the
// full count until the 10 minutes are up); one never provisioned 7 days
// after its creation fails as Expired; Provisioned=Unknown is never
// retried; Provisioned=False is checked again once its backoff has passed
// since the condition was written; a new one is checked.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_LIFECYCLE_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_LIFECYCLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/provisioning_request.h"

namespace propscaler::nodescale {

struct ProvReqTimings {
  Duration booking = std::chrono::minutes(10);
  Duration expiry = std::chrono::hours(7 * 24);
  Duration terminal_ttl = std::chrono::hours(7 * 24);
};

struct ProvReqOptions {
  ProvReqTimings timings;
  // --check-capacity-processor-instance: check-capacity requests are served
  // only when their processorInstance parameter equals it (empty: only
  // those without one); best-effort-atomic ones only when it is empty.
  std::string processor_instance;
};

struct ProvReqVerdict {
  enum class Action {
    kNone,         // nothing this loop (done, failed, or waiting: retry_at)
    kUnsupported,  // a class or processor instance not served here
    kCheck,        // find it capacity now
    kBook,         // holds room for `booked_pods` pods
    kWrite,        // write `conditions` (booking over, expired, invalid)
    kDelete,       // terminal for longer than the TTL
  };
  Action action = Action::kNone;
  int64_t booked_pods = 0;
  std::optional<TimePoint> retry_at;
  std::vector<kube::ProvReqCondition> conditions;
  std::string why;  // one line for the log and /status
};

// Whether propscaler serves the request's class under `options`.
bool ServesClass(const kube::ProvisioningRequest& request,
                 const ProvReqOptions& options);

// `backoff`: the request's wait after its last failed check;
// `consumed`: its consuming pods that are scheduled.
ProvReqVerdict ClassifyProvisioningRequest(
    const kube::ProvisioningRequest& request, TimePoint now, Duration backoff,
    int64_t consumed, const ProvReqOptions& options);

// The conditions a check writes: Accepted and Provisioned True
// (CapacityIsFound) when every pod fits; else Provisioned False
// (CapacityIsNotFound), or Failed True with `noRetry: "true"` (check-capacity).
std::vector<kube::ProvReqCondition> CheckOutcome(
    const kube::ProvisioningRequest& request, bool fits, TimePoint now);

// An all-or-nothing scale-up the provider accepted: Accepted, and
// Provisioned True (CapacityIsProvisioned) saying which groups grow.
std::vector<kube::ProvReqCondition> ScaleUpAccepted(const std::string& what,
                                                    TimePoint now);

// An atomic scale-up whose nodes did not all come (the provider refused
// part of it, or they were not Ready within --max-node-provision-time),
// and whose nodes were given back, `what` saying which. Before Provisioned
// was written (a refusal) it is retried: Provisioned False
// (CapacityIsNotFound); after, pods may have been admitted onto the nodes
// that came, so it fails (Failed True, NodesGivenBack) and the job's queue
// (Kueue) makes a new request.
std::vector<kube::ProvReqCondition> GivenBack(
    const kube::ProvisioningRequest& request, const std::string& what,
    TimePoint now);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_LIFECYCLE_H_
