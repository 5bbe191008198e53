#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"

#include <algorithm>

#include "nodescale/plan/provisioning_requests/provreq_validation.h"

namespace propscaler::nodescale {
namespace {

using Action = ProvReqVerdict::Action;
using kube::ProvReqCondition;

ProvReqVerdict Verdict(Action action, std::string why) {
  ProvReqVerdict verdict;
  verdict.action = action;
  verdict.why = std::move(why);
  return verdict;
}

ProvReqVerdict Write(ProvReqCondition condition, std::string why) {
  ProvReqVerdict verdict = Verdict(Action::kWrite, std::move(why));
  verdict.conditions.push_back(std::move(condition));
  return verdict;
}

std::string Parameter(const kube::ProvisioningRequest& request,
                      const std::string& key) {
  auto found = request.parameters.find(key);
  return found == request.parameters.end() ? "" : found->second;
}

// When the Provisioned or Failed condition last changed; nullopt when it
// has neither.
std::optional<TimePoint> LastOutcome(const kube::ProvisioningRequest& request) {
  std::optional<TimePoint> last;
  for (const char* type : {kube::kProvisioned, kube::kFailed}) {
    if (const ProvReqCondition* c = request.Condition(type)) {
      last = last ? std::max(*last, c->last_transition) : c->last_transition;
    }
  }
  return last;
}

}  // namespace

bool ServesClass(const kube::ProvisioningRequest& request,
                 const ProvReqOptions& options) {
  if (request.class_name == kube::kCheckCapacityClass) {
    return Parameter(request, "processorInstance") ==
           options.processor_instance;
  }
  return request.class_name == kube::kBestEffortAtomicClass &&
         options.processor_instance.empty();
}

ProvReqVerdict ClassifyProvisioningRequest(
    const kube::ProvisioningRequest& request, TimePoint now, Duration backoff,
    int64_t consumed, const ProvReqOptions& options) {
  const ProvReqTimings& t = options.timings;
  if (!ServesClass(request, options)) {
    return Verdict(Action::kUnsupported,
                   "class " + request.class_name + " is not served here");
  }
  if (const std::optional<TimePoint> last = LastOutcome(request);
      last && now - *last > t.terminal_ttl) {
    return Verdict(Action::kDelete, "finished over 7 days ago");
  }
  if (request.Is(kube::kFailed)) return Verdict(Action::kNone, "failed");
  if (Status valid = ValidateProvisioningRequest(request); !valid.ok()) {
    return Write({kube::kFailed, "True", "InvalidSpec", valid.message(), now},
                 valid.message());
  }
  if (request.Is(kube::kProvisioned)) {
    if (request.Is(kube::kBookingExpired)) {
      return Verdict(Action::kNone, "provisioned; booking over");
    }
    if (now - request.Condition(kube::kProvisioned)->last_transition >
        t.booking) {
      return Write(
          {kube::kBookingExpired, "True", "CapacityReservationTimeExpired",
           "Capacity reservation time is expired", now},
          "booking expired");
    }
    if (consumed >= request.PodCount()) {
      return Write({kube::kBookingExpired, "True", "CapacityBookingConsumed",
                    "Capacity booking consumed: all pods scheduled", now},
                   "booking consumed by its pods");
    }
    ProvReqVerdict booked =
        Verdict(Action::kBook,
                "provisioned; room booked for " +
                    std::to_string(request.PodCount() - consumed) + " pods");
    booked.booked_pods = request.PodCount() - consumed;
    return booked;
  }
  if (now - request.created > t.expiry) {
    return Write({kube::kFailed, "True", "Expired",
                  "ProvisioningRequest is expired", now},
                 "not provisioned within 7 days of its creation");
  }
  const ProvReqCondition* provisioned = request.Condition(kube::kProvisioned);
  if (provisioned == nullptr) return Verdict(Action::kCheck, "new");
  if (provisioned->status != "False") {
    return Verdict(Action::kNone, "Provisioned is " + provisioned->status);
  }
  const TimePoint retry = provisioned->last_transition + backoff;
  if (now < retry) {
    ProvReqVerdict waiting = Verdict(Action::kNone, "waiting to retry");
    waiting.retry_at = retry;
    return waiting;
  }
  return Verdict(Action::kCheck, "retrying");
}

std::vector<kube::ProvReqCondition> CheckOutcome(
    const kube::ProvisioningRequest& request, bool fits, TimePoint now) {
  std::vector<ProvReqCondition> out = {
      {kube::kAccepted, "True", "Accepted",
       "ProvisioningRequest is accepted by propscaler", now}};
  if (fits) {
    out.push_back({kube::kProvisioned, "True", "CapacityIsFound",
                   "Capacity is found in the cluster", now});
  } else if (request.class_name == kube::kCheckCapacityClass &&
             Parameter(request, "noRetry") == "true") {
    out.push_back({kube::kFailed, "True", "CapacityIsNotFound",
                   "propscaler could not find requested capacity", now});
  } else {
    out.push_back({kube::kProvisioned, "False", "CapacityIsNotFound",
                   "Capacity is not found, propscaler will try to find it "
                   "later.",
                   now});
  }
  return out;
}

std::vector<kube::ProvReqCondition> ScaleUpAccepted(const std::string& what,
                                                    TimePoint now) {
  return {{kube::kAccepted, "True", "Accepted",
           "ProvisioningRequest is accepted by propscaler", now},
          {kube::kProvisioned, "True", "CapacityIsProvisioned",
           "Capacity is provisioned: " + what, now}};
}

std::vector<kube::ProvReqCondition> GivenBack(
    const kube::ProvisioningRequest& request, const std::string& what,
    TimePoint now) {
  const ProvReqCondition* provisioned = request.Condition(kube::kProvisioned);
  if (provisioned != nullptr && provisioned->status == "True") {
    return {{kube::kFailed, "True", "NodesGivenBack", what, now}};
  }
  return {
      {kube::kProvisioned, "False", "CapacityIsNotFound",
       "Capacity is not found, propscaler will try to find it later: " + what,
       now}};
}

}  // namespace propscaler::nodescale
