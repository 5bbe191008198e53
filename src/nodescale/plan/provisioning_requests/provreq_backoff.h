// How long a ProvisioningRequest that found no capacity waits before it is
// checked again, as Cluster Autoscaler's
// --provisioning-request-initial-backoff-time (1m, doubled at each retry)
// and --provisioning-request-max-backoff-time (10m), kept for at most
// --provisioning-request-max-backoff-cache-size requests (1000; the oldest
// entry goes first, and a request it forgot starts again at the initial
// time). Keyed by the request's uid. Pure: no clock.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_BACKOFF_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_BACKOFF_H_

#include <cstddef>
#include <deque>
#include <map>
#include <string>

#include "common/clock.h"

namespace propscaler::nodescale {

class ProvReqBackoff {
 public:
  ProvReqBackoff(Duration initial, Duration max, size_t capacity)
      : initial_(initial), max_(max), capacity_(capacity) {}

  // The wait after the request's last failed check.
  Duration Of(const std::string& uid) const;
  // A check found no capacity: the first time the wait is the initial one,
  // then each time twice the last (capped).
  void Failed(const std::string& uid);
  // Provisioned, failed for good, or deleted.
  void Forget(const std::string& uid);

 private:
  const Duration initial_;
  const Duration max_;
  const size_t capacity_;
  std::map<std::string, Duration> waits_;
  std::deque<std::string> order_;  // oldest first
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_BACKOFF_H_
