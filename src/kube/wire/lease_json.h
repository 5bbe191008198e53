// The JSON of coordination.k8s.io/v1 Leases and the path of their
// collection.
#ifndef PROPSCALER_KUBE_WIRE_LEASE_JSON_H_
#define PROPSCALER_KUBE_WIRE_LEASE_JSON_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/model/lease.h"

namespace propscaler::kube {

Result<Lease> DecodeLease(std::string_view body);
std::string EncodeLease(const Lease& lease);
// The path of the namespace's leases collection.
std::string LeasesPath(const std::string& ns);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_LEASE_JSON_H_
