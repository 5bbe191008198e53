#include "nodescale/node_actions.h"

#include <algorithm>

#include "nodescale/resources_json.h"

namespace propscaler::nodescale {
namespace {

std::vector<Taint> Without(std::vector<Taint> taints, std::string_view key) {
  std::erase_if(taints, [&](const Taint& t) { return t.key == key; });
  return taints;
}

std::string UnixSeconds(TimePoint now) {
  return std::to_string(
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch())
          .count());
}

Status PatchNodeSpec(const kube::KubeApi& api, const NodeState& node,
                     const std::vector<Taint>& taints, bool unschedulable,
                     const std::string& what) {
  const std::string body =
      "{\"spec\":{\"taints\":" + EncodeTaints(taints) +
      ",\"unschedulable\":" + (unschedulable ? "true" : "false") + "}}";
  kube::HttpRequest request{"PATCH", "/api/v1/nodes/" + node.name, body,
                            "application/merge-patch+json"};
  Result<std::string> patched = api.Call(request);
  if (!patched.ok()) {
    return patched.status().WithContext(what + " on node " + node.name);
  }
  return Status::Ok();
}

}  // namespace

bool HasTaint(const NodeState& node, std::string_view key) {
  return std::any_of(node.taints.begin(), node.taints.end(),
                     [&](const Taint& t) { return t.key == key; });
}

Status SetDeletionCandidate(const kube::KubeApi& api, const NodeState& node,
                            bool candidate, TimePoint now) {
  std::vector<Taint> taints = Without(node.taints, kDeletionCandidateTaint);
  if (candidate) {
    taints.push_back({std::string(kDeletionCandidateTaint), UnixSeconds(now),
                      TaintEffect::kPreferNoSchedule});
  }
  return PatchNodeSpec(api, node, taints, node.unschedulable,
                       std::string(candidate ? "adding" : "removing") +
                           " taint " + std::string(kDeletionCandidateTaint));
}

Status MarkToBeDeleted(const kube::KubeApi& api, const NodeState& node,
                       TimePoint now) {
  std::vector<Taint> taints = Without(node.taints, kToBeDeletedTaint);
  taints.push_back({std::string(kToBeDeletedTaint), UnixSeconds(now),
                    TaintEffect::kNoSchedule});
  return PatchNodeSpec(api, node, taints, true,
                       "adding taint " + std::string(kToBeDeletedTaint));
}

Status UnmarkToBeDeleted(const kube::KubeApi& api, const NodeState& node) {
  std::vector<Taint> taints =
      Without(Without(node.taints, kToBeDeletedTaint), kDeletionCandidateTaint);
  return PatchNodeSpec(api, node, taints, false,
                       "removing taint " + std::string(kToBeDeletedTaint));
}

Status EvictPod(const kube::KubeApi& api, const PodState& pod,
                int64_t grace_seconds) {
  const std::string body =
      "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{"
      "\"name\":" +
      QuoteJsonString(pod.name) +
      ",\"namespace\":" + QuoteJsonString(pod.namespace_) +
      "},\"deleteOptions\":{\"gracePeriodSeconds\":" +
      std::to_string(grace_seconds) + "}}";
  kube::HttpRequest request{"POST",
                            "/api/v1/namespaces/" + pod.namespace_ + "/pods/" +
                                pod.name + "/eviction",
                            body, "application/json"};
  Result<std::string> evicted = api.Call(request);
  if (!evicted.ok() && evicted.status().code() != StatusCode::kNotFound) {
    return evicted.status().WithContext("evicting pod " + pod.Key());
  }
  return Status::Ok();
}

}  // namespace propscaler::nodescale
