#include "nodescale/plan/pod_classes.h"

#include <string>
#include <unordered_map>

namespace propscaler::nodescale {
namespace {

bool SameRequirement(const LabelRequirement& a, const LabelRequirement& b) {
  return a.key == b.key && a.op == b.op && a.values == b.values;
}

bool SameSelector(const LabelSelector& a, const LabelSelector& b) {
  const auto& ra = a.requirements();
  const auto& rb = b.requirements();
  if (ra.size() != rb.size()) return false;
  for (size_t i = 0; i < ra.size(); ++i) {
    if (!SameRequirement(ra[i], rb[i])) return false;
  }
  return true;
}

bool SameTerm(const PodAffinityTerm& a, const PodAffinityTerm& b) {
  return a.namespaces == b.namespaces && a.topology_key == b.topology_key &&
         SameSelector(a.selector, b.selector);
}

bool SameConstraint(const SpreadConstraint& a, const SpreadConstraint& b) {
  return a.max_skew == b.max_skew && a.topology_key == b.topology_key &&
         a.min_domains == b.min_domains && SameSelector(a.selector, b.selector);
}

template <typename T, typename Same>
bool SameList(const std::vector<T>& a, const std::vector<T>& b, Same same) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i])) return false;
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
         a.host_ports == b.host_ports &&
         SameList(a.affinity, b.affinity, SameTerm) &&
         SameList(a.anti_affinity, b.anti_affinity, SameTerm) &&
         SameList(a.spread, b.spread, SameConstraint);
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
