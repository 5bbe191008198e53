#include "app/simulate_provisioning.h"

#include <map>

#include "nodescale/plan/provreq_capacity.h"
#include "nodescale/plan/provreq_lifecycle.h"

namespace propscaler {
namespace {

using nodescale::PodList;
using nodescale::PodState;
using nodescale::ProvReqVerdict;

// The request's pods from the file's PodTemplates, or why not.
Result<std::vector<PodState>> PodsOf(const kube::ProvisioningRequest& request,
                                     const kube::ProvisioningRequestsFile& file,
                                     int64_t count) {
  std::vector<PodState> set_pods;
  for (const kube::PodSet& set : request.pod_sets) {
    auto found =
        file.pod_templates.find(request.namespace_ + "/" + set.pod_template);
    if (found == file.pod_templates.end()) {
      return Status::NotFound("PodTemplate " + request.namespace_ + "/" +
                              set.pod_template + " is not in the file");
    }
    set_pods.push_back(found->second);
  }
  return nodescale::ProvisioningRequestPods(request, set_pods, count);
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

}  // namespace

std::vector<ProvReqPreview> PreviewProvisioningRequests(
    const kube::ProvisioningRequestsFile& file,
    const nodescale::ClusterSnapshot& snapshot, TimePoint now) {
  const std::map<std::string, int64_t> consumed = Consumed(snapshot.pods);
  std::vector<ProvReqPreview> out;
  std::vector<PodState> booked;
  std::vector<nodescale::CapacityCheck> checks;
  std::vector<size_t> check_of;  // the preview each check answers
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
      if (request.class_name != kube::kCheckCapacityClass) {
        preview.result = "best-effort-atomic-scale-up is not served yet";
      } else if (Result<std::vector<PodState>> pods =
                     PodsOf(request, file, request.PodCount());
                 !pods.ok()) {
        preview.result =
            "Failed=True (FailedToCreatePods: " + pods.status().message() + ")";
      } else {
        checks.push_back({std::move(pods).value(), false});
        check_of.push_back(out.size());
      }
    }
    out.push_back(std::move(preview));
  }
  nodescale::CheckCapacity(
      snapshot.nodes, nodescale::BookedFirst(booked, snapshot.pods), &checks);
  for (size_t i = 0; i < checks.size(); ++i) {
    const kube::ProvisioningRequest& request = file.requests[check_of[i]];
    out[check_of[i]].result =
        Written(nodescale::CheckOutcome(request, checks[i].fits, now));
  }
  return out;
}

}  // namespace propscaler
