// coordination.k8s.io/v1 Leases: the compact record leader election reads
// and writes, and its JSON. kube::Client gets, creates and updates them (an
// update sends the resourceVersion read, so a stale write gets kConflict).
#ifndef PROPSCALER_KUBE_LEASE_H_
#define PROPSCALER_KUBE_LEASE_H_

#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"

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

Result<Lease> DecodeLease(std::string_view body);
std::string EncodeLease(const Lease& lease);
// "2024-05-01T10:00:00.123456Z"
std::string FormatMicroTime(TimePoint time);
// The path of the namespace's leases collection.
std::string LeasesPath(const std::string& ns);
// "lease NS/NAME", for errors.
std::string DescribeLease(const Lease& lease);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_LEASE_H_
