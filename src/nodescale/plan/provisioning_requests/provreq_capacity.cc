#include "nodescale/plan/provisioning_requests/provreq_capacity.h"

#include <string>

#include "nodescale/plan/buffers/buffer_demand.h"

namespace propscaler::nodescale {

std::vector<PodState> ProvisioningRequestPods(
    const kube::ProvisioningRequest& request,
    const std::vector<PodState>& set_pods, int64_t limit) {
  std::vector<PodState> pods;
  for (size_t i = 0; i < request.pod_sets.size() && i < set_pods.size(); ++i) {
    for (int64_t j = 0; j < request.pod_sets[i].count; ++j) {
      if (static_cast<int64_t>(pods.size()) >= limit) return pods;
      pods.push_back(VirtualPod(
          set_pods[i], request.namespace_,
          request.name + "-" + std::to_string(i) + "-" + std::to_string(j),
          kProvisioningRequestKind, request.name));
    }
  }
  return pods;
}

Result<std::vector<PodState>> RequestPodsFrom(
    const kube::ProvisioningRequest& request,
    const kube::PodTemplateMap& templates, int64_t limit,
    std::string_view where) {
  std::vector<PodState> set_pods;
  for (const kube::PodSet& set : request.pod_sets) {
    const std::string key = request.namespace_ + "/" + set.pod_template;
    auto found = templates.find(key);
    if (found == templates.end()) {
      return Status::NotFound("PodTemplate " + key + " is not in " +
                              std::string(where));
    }
    if (!found->second.error.empty()) {
      return Status::Invalid(found->second.error);
    }
    set_pods.push_back(found->second.pod);
  }
  return ProvisioningRequestPods(request, set_pods, limit);
}

bool AwaitsTemplates(const Status& pods,
                     const kube::ProvisioningRequest& request, TimePoint now) {
  return pods.code() == StatusCode::kNotFound &&
         now - request.created < kTemplateArrivalGrace;
}

bool PlaceAllOrNothing(BinPlacement* placement,
                       const std::vector<PodState>& pods) {
  std::vector<std::pair<const PodState*, size_t>> placed;
  placement->RestartNextFit();
  for (const PodState& pod : pods) {
    std::optional<size_t> bin = placement->NextFit(pod);
    if (!bin) {
      for (auto it = placed.rbegin(); it != placed.rend(); ++it) {
        placement->Remove(*it->first, it->second);
      }
      return false;
    }
    placement->Place(pod, *bin);
    placed.emplace_back(&pod, *bin);
  }
  return true;
}

PodList BookedFirst(std::vector<PodState> first, const PodList& rest) {
  PodList out(std::move(first));
  for (size_t i = 0; i < rest.size(); ++i) out.Share(rest.SharedAt(i));
  return out;
}

CapacityChecker::CapacityChecker(const std::vector<NodeState>& nodes,
                                 const std::vector<Bin>& upcoming,
                                 const PodList& pods)
    : placement_(nodes, pods) {
  for (const Bin& bin : upcoming) placement_.AddBin(bin);
  placement_.PlacePending(PendingPods(pods));
}

bool CapacityChecker::Check(const std::vector<PodState>& pods) {
  return PlaceAllOrNothing(&placement_, pods);
}

void CheckCapacity(const std::vector<NodeState>& nodes,
                   const std::vector<Bin>& upcoming, const PodList& pods,
                   std::vector<CapacityCheck>* checks) {
  CapacityChecker checker(nodes, upcoming, pods);
  for (CapacityCheck& check : *checks) check.fits = checker.Check(check.pods);
}

}  // namespace propscaler::nodescale
