// coordination.k8s.io/v1 Leases: the compact record leader election reads
// and writes (its JSON: wire/lease_json.h). kube::Client gets, creates and
// updates them (an update sends the resourceVersion read, so a stale write
// gets kConflict).
#ifndef PROPSCALER_KUBE_MODEL_LEASE_H_
#define PROPSCALER_KUBE_MODEL_LEASE_H_

#include <string>

#include "common/clock.h"

namespace propscaler::kube {

struct Lease {
  std::string namespace_;
  std::string name;
  std::string resource_version;
  std::string holder;
  int lease_duration_seconds = 0;
  std::string renew_time;  // MicroTime text, as stored
  int transitions = 0;
};

// "lease NS/NAME", for errors.
std::string DescribeLease(const Lease& lease);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_LEASE_H_
