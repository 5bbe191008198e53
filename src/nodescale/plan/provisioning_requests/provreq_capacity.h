// check-capacity for ProvisioningRequests: whether every pod a request asks
// for fits the nodes there are and those already coming, never adding
// one. Placed all or nothing, in a BinPlacement that already holds the
// running and pending pods and the rooms booked before: a request that
// fits stays placed, so the next request of the same batch cannot take its
// room (Cluster Autoscaler's batch never double-books either). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_CAPACITY_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_CAPACITY_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "kube/model/provisioning_request.h"
#include "kube/model/request_pod_template.h"
#include "nodescale/plan/simulation/bin_placement.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

inline constexpr char kProvisioningRequestKind[] = "ProvisioningRequest";

// The request's pods: for podSet i, `count` copies of `set_pods[i]` (its
// PodTemplate's pod), named <request>-<i>-<j> as Cluster Autoscaler names
// them, pending in the request's namespace and owned by it. At most
// `limit` pods in all (the rest would never fit anyway).
std::vector<PodState> ProvisioningRequestPods(
    const kube::ProvisioningRequest& request,
    const std::vector<PodState>& set_pods, int64_t limit);

// The request's pods (ProvisioningRequestPods) from its PodTemplates in
// `templates`: NotFound naming a template not in `where` ("the cluster",
// "the file"), or a template's own error.
Result<std::vector<PodState>> RequestPodsFrom(
    const kube::ProvisioningRequest& request,
    const kube::PodTemplateMap& templates, int64_t limit,
    std::string_view where);

// A request whose PodTemplate is not listed yet (RequestPodsFrom's
// NotFound) waits while it is younger than this instead of failing: its
// template and itself come by two watches, in either order, when they are
// made together (as Kueue makes them). Cluster Autoscaler fails it at once.
inline constexpr Duration kTemplateArrivalGrace = std::chrono::seconds(30);
bool AwaitsTemplates(const Status& pods,
                     const kube::ProvisioningRequest& request, TimePoint now);

// Places every pod of `pods` on a bin that accepts it and returns true, or
// places none and returns false.
bool PlaceAllOrNothing(BinPlacement* placement,
                       const std::vector<PodState>& pods);

// `first` (booked rooms' pods), then every pod of `rest`, shared.
PodList BookedFirst(std::vector<PodState> first, const PodList& rest);

// One request's pods and whether they all fit.
struct CapacityCheck {
  std::vector<PodState> pods;
  bool fits = false;
};

// check-capacity one request at a time: `nodes` and the nodes still
// coming (`upcoming`) with `pods` placed (the bound ones, then the pending
// ones in order: booked rooms first); each Check places a request's pods
// all or nothing and keeps those that fit, so that the next request cannot
// take their room. Holds pointers into `nodes`, `upcoming`, `pods` and
// each Check's pods: keep them alive while it is used.
class CapacityChecker {
 public:
  CapacityChecker(const std::vector<NodeState>& nodes,
                  const std::vector<Bin>& upcoming, const PodList& pods);
  bool Check(const std::vector<PodState>& pods);

 private:
  BinPlacement placement_;
};

// check-capacity over a batch: `nodes` and the nodes still coming
// (`upcoming`, plan/scale_up/upcoming_nodes.h) with `pods` (the bound ones,
// then the pending ones placed in order: booked rooms first), then each check's
// pods in turn, all or nothing; a check that fits keeps its room from the next.
void CheckCapacity(const std::vector<NodeState>& nodes,
                   const std::vector<Bin>& upcoming, const PodList& pods,
                   std::vector<CapacityCheck>* checks);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_PROVREQ_CAPACITY_H_
