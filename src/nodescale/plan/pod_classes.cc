#include "nodescale/plan/pod_classes.h"

#include <string>
#include <unordered_map>

namespace propscaler::nodescale {
namespace {

bool SameRequirement(const LabelRequirement& a, const LabelRequirement& b) {
  return a.key == b.key && a.op == b.op && a.values == b.values;
}

bool SameTerm(const HostnameAntiAffinityTerm& a,
              const HostnameAntiAffinityTerm& b) {
  const auto& ra = a.selector.requirements();
  const auto& rb = b.selector.requirements();
  if (a.namespaces != b.namespaces || ra.size() != rb.size()) return false;
  for (size_t i = 0; i < ra.size(); ++i) {
    if (!SameRequirement(ra[i], rb[i])) return false;
  }
  return true;
}

bool SameAntiAffinity(const PodState& a, const PodState& b) {
  if (a.anti_affinity.size() != b.anti_affinity.size()) return false;
  for (size_t i = 0; i < a.anti_affinity.size(); ++i) {
    if (!SameTerm(a.anti_affinity[i], b.anti_affinity[i])) return false;
  }
  return true;
}

std::string ControllerKey(const PodState& pod) {
  return pod.namespace_ + "/" + pod.owner_kind + "/" + pod.owner_name;
}

}  // namespace

bool SameSchedulingSpec(const PodState& a, const PodState& b) {
  return a.namespace_ == b.namespace_ && a.requests == b.requests &&
         a.labels == b.labels && a.node_selector == b.node_selector &&
         a.node_affinity == b.node_affinity && a.tolerations == b.tolerations &&
         a.host_ports == b.host_ports && SameAntiAffinity(a, b);
}

PodClasses ClassifyPods(const std::vector<const PodState*>& pods) {
  PodClasses out;
  out.class_of.resize(pods.size());
  std::unordered_map<std::string, std::vector<size_t>> by_controller;
  for (size_t i = 0; i < pods.size(); ++i) {
    const PodState& pod = *pods[i];
    size_t found = out.classes.size();
    if (!pod.owner_kind.empty()) {
      std::vector<size_t>& candidates = by_controller[ControllerKey(pod)];
      for (size_t c : candidates) {
        if (SameSchedulingSpec(*out.classes[c].representative, pod)) {
          found = c;
          break;
        }
      }
      if (found == out.classes.size()) candidates.push_back(found);
    }
    if (found == out.classes.size()) out.classes.push_back({&pod, {}});
    out.classes[found].members.push_back(i);
    out.class_of[i] = found;
  }
  return out;
}

}  // namespace propscaler::nodescale
