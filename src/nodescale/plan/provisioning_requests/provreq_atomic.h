// best-effort-atomic-scale-up ProvisioningRequests, as Cluster Autoscaler
// serves them (../shared/reference/provisioning-request.md, section 2):
// the request's pods that do not fit the nodes there are (and those
// coming) get one all-or-nothing scale-up of one node group, with its
// similar groups under --balance-similar-node-groups, or none. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_ATOMIC_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_ATOMIC_H_

#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/provisioning_request.h"
#include "nodescale/plan/scale_up/scale_up.h"

namespace propscaler::nodescale {

struct AtomicOutcome {
  // Its increases, when any, are asked of the provider; then the request
  // is Provisioned (ScaleUpAccepted) once the provider accepts.
  ScaleUpPlan plan;
  // Every pod fits as the cluster is: Provisioned, its room booked.
  bool fits = false;
  // Without an increase: the conditions to write now.
  std::vector<kube::ProvReqCondition> conditions;
  std::string summary;  // for the log and the preview
};

// `snapshot` holds `pods` (the request's, ProvisioningRequestPods with
// `limit` cut to what the cluster could ever hold) after every other
// pending pod.
AtomicOutcome PlanAtomicRequest(const kube::ProvisioningRequest& request,
                                const std::vector<PodState>& pods,
                                const ClusterSnapshot& snapshot,
                                const std::vector<NodeGroup>& groups,
                                const ScaleUpMemory& memory,
                                const ScaleUpConfig& config,
                                ExpanderChain* expander, TimePoint now);

// "node group big grows by 4[, node group ...]".
std::string DescribeIncreases(const ScaleUpPlan& plan);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_ATOMIC_H_
