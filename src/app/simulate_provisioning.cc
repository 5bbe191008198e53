#include "app/simulate_provisioning.h"

#include <map>
#include <optional>

#include "nodescale/plan/provisioning_requests/provreq_atomic.h"
#include "nodescale/plan/provisioning_requests/provreq_capacity.h"
#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"
#include "nodescale/plan/scale_up/upcoming_nodes.h"

namespace propscaler {
namespace {

using nodescale::PodList;
using nodescale::PodState;
using nodescale::ProvReqVerdict;

// The request's pods from the file's PodTemplates, or why not.
Result<std::vector<PodState>> PodsOf(const kube::ProvisioningRequest& request,
                                     const kube::ProvisioningRequestsFile& file,
                                     int64_t count) {
  return nodescale::RequestPodsFrom(request, file.pod_templates, count,
                                    "the file");
}

// Scheduled pods consuming each request, by "namespace/name".
std::map<std::string, int64_t> Consumed(const PodList& pods) {
  std::map<std::string, int64_t> out;
  for (const PodState& pod : pods) {
    if (pod.node_name.empty() || pod.terminated) continue;
    std::string_view name = kube::AnnotationOf(
        *pod.annotations, kube::kConsumeProvisioningRequestAnnotation);
    if (name.empty()) {
      name = kube::AnnotationOf(*pod.annotations,
                                kube::kDeprecatedConsumeAnnotation);
    }
    if (!name.empty()) ++out[pod.namespace_ + "/" + std::string(name)];
  }
  return out;
}

std::string Written(const std::vector<kube::ProvReqCondition>& conditions) {
  const kube::ProvReqCondition& last = conditions.back();
  return last.type + "=" + last.status + " (" + last.reason +
         (last.message.empty() ? "" : ": " + last.message) + ")";
}

// The first due atomic request, planned after the checks: `booked` holds
// the rooms booked before and those the checks just found.
std::string PreviewAtomic(const kube::ProvisioningRequest& request,
                          std::vector<PodState> pods,
                          std::vector<PodState> booked,
                          const nodescale::ClusterSnapshot& snapshot,
                          TimePoint now, const PreviewScaleUp& inputs) {
  nodescale::ClusterSnapshot planned = snapshot;
  planned.pods = nodescale::BookedFirst(std::move(booked), snapshot.pods);
  for (const PodState& pod : pods) planned.pods.push_back(pod);
  const nodescale::AtomicOutcome outcome = nodescale::PlanAtomicRequest(
      request, pods, planned, *inputs.groups, nodescale::ScaleUpMemory{},
      *inputs.config, inputs.expander, now);
  if (outcome.plan.increases.empty()) return Written(outcome.conditions);
  return Written(nodescale::ScaleUpAccepted(outcome.summary, now)) +
         " once the provider accepts";
}

}  // namespace

std::vector<ProvReqPreview> PreviewProvisioningRequests(
    const kube::ProvisioningRequestsFile& file,
    const nodescale::ClusterSnapshot& snapshot, TimePoint now,
    const PreviewScaleUp& scale_up) {
  const std::map<std::string, int64_t> consumed = Consumed(snapshot.pods);
  std::vector<ProvReqPreview> out;
  std::vector<PodState> booked;
  std::vector<nodescale::CapacityCheck> checks;
  std::vector<size_t> check_of;  // the preview each check answers
  std::optional<size_t> atomic_of;
  std::vector<PodState> atomic_pods;
  for (const kube::ProvisioningRequest& request : file.requests) {
    auto used = consumed.find(request.Key());
    const ProvReqVerdict verdict = nodescale::ClassifyProvisioningRequest(
        request, now, std::chrono::minutes(1),
        used == consumed.end() ? 0 : used->second, {});
    ProvReqPreview preview{request.Key(), request.class_name,
                           request.PodCount(), verdict.why};
    if (verdict.action == ProvReqVerdict::Action::kWrite) {
      preview.result = Written(verdict.conditions);
    } else if (verdict.action == ProvReqVerdict::Action::kBook) {
      Result<std::vector<PodState>> pods =
          PodsOf(request, file, verdict.booked_pods);
      if (pods.ok()) {
        for (PodState& pod : *pods) booked.push_back(std::move(pod));
      } else {
        preview.result += "; its room is not held: " + pods.status().message();
      }
    } else if (verdict.action == ProvReqVerdict::Action::kCheck) {
      const bool atomic_class = request.class_name != kube::kCheckCapacityClass;
      if (atomic_class && atomic_of) {
        preview.result = "waits for the next loop (one atomic scale-up a loop)";
      } else if (Result<std::vector<PodState>> pods =
                     PodsOf(request, file, request.PodCount());
                 !pods.ok()) {
        preview.result =
            "Failed=True (FailedToCreatePods: " + pods.status().message() + ")";
      } else if (atomic_class) {
        atomic_of = out.size();
        atomic_pods = std::move(pods).value();
      } else {
        checks.push_back({std::move(pods).value(), false});
        check_of.push_back(out.size());
      }
    }
    out.push_back(std::move(preview));
  }
  const nodescale::UpcomingNodes upcoming = nodescale::UpcomingNodesOf(
      snapshot, *scale_up.groups, {}, *scale_up.config);
  nodescale::CheckCapacity(snapshot.nodes, upcoming.bins,
                           nodescale::BookedFirst(booked, snapshot.pods),
                           &checks);
  for (size_t i = 0; i < checks.size(); ++i) {
    const kube::ProvisioningRequest& request = file.requests[check_of[i]];
    out[check_of[i]].result =
        Written(nodescale::CheckOutcome(request, checks[i].fits, now));
    if (!checks[i].fits) continue;
    for (PodState& pod : checks[i].pods) booked.push_back(std::move(pod));
  }
  if (atomic_of) {
    out[*atomic_of].result =
        PreviewAtomic(file.requests[*atomic_of], std::move(atomic_pods),
                      std::move(booked), snapshot, now, scale_up);
  }
  return out;
}

}  // namespace propscaler
