// `propscaler simulate --provisioning-requests=FILE`: what each
// ProvisioningRequest of the file would get now from node-scale mode with
// --enable-provisioning-requests, on the snapshot's nodes and pods: the
// same lifecycle, booking and check-capacity placement as the loop
// (nodescale/plan/provreq_*), with the file's PodTemplates.
#ifndef PROPSCALER_APP_SIMULATE_PROVISIONING_H_
#define PROPSCALER_APP_SIMULATE_PROVISIONING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/wire/provisioning_request_json.h"
#include "nodescale/plan/snapshot.h"

namespace propscaler {

struct ProvReqPreview {
  std::string request;  // "namespace/name"
  std::string class_name;
  int64_t pods = 0;
  std::string result;  // "Provisioned (CapacityIsFound)", ...
};

std::vector<ProvReqPreview> PreviewProvisioningRequests(
    const kube::ProvisioningRequestsFile& file,
    const nodescale::ClusterSnapshot& snapshot, TimePoint now);

}  // namespace propscaler

#endif  // PROPSCALER_APP_SIMULATE_PROVISIONING_H_
