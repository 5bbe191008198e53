// `propscaler simulate --provisioning-requests=FILE`: what each
// ProvisioningRequest of the file would get now from node-scale mode with
// --enable-provisioning-requests, on the snapshot's nodes and pods: the
// same lifecycle, booking, check-capacity placement and all-or-nothing
// scale-up as the loop (nodescale/plan/provisioning_requests/provreq_*), with
// the file's PodTemplates.
#ifndef PROPSCALER_APP_SIMULATE_PROVISIONING_H_
#define PROPSCALER_APP_SIMULATE_PROVISIONING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/wire/provisioning_request_json.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler {

struct ProvReqPreview {
  std::string request;  // "namespace/name"
  std::string class_name;
  int64_t pods = 0;
  std::string result;  // "Provisioned (CapacityIsFound)", ...
};

// What the scale-up plans with: the groups make the nodes still coming
// (counted by the checks) and a best-effort-atomic-scale-up request's
// scale-up.
struct PreviewScaleUp {
  const std::vector<nodescale::NodeGroup>* groups = nullptr;
  const nodescale::ScaleUpConfig* config = nullptr;
  nodescale::ExpanderChain* expander = nullptr;
};

// As a loop takes them: the check-capacity requests checked, then the
// first due atomic one planned on what that leaves.
std::vector<ProvReqPreview> PreviewProvisioningRequests(
    const kube::ProvisioningRequestsFile& file,
    const nodescale::ClusterSnapshot& snapshot, TimePoint now,
    const PreviewScaleUp& scale_up);

}  // namespace propscaler

#endif  // PROPSCALER_APP_SIMULATE_PROVISIONING_H_
