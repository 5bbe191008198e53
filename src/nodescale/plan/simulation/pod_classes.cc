#include "nodescale/plan/simulation/pod_classes.h"

#include <string>
#include <unordered_map>

namespace propscaler::nodescale {
namespace {

// Where to look for a pod's class: its controller's pods, or, for a pod
// of none, the pods of its namespace with its requests and labels (the
// rest of the spec is compared within).
std::string BucketKey(const PodState& pod) {
  if (!pod.owner_kind.empty()) {
    return pod.namespace_ + "/" + pod.owner_kind.get() + "/" +
           pod.owner_name.get();
  }
  const Resources& r = pod.requests;
  std::string key = pod.namespace_ + "|" + std::to_string(r.cpu_millis) + "|" +
                    std::to_string(r.memory_bytes) + "|" +
                    std::to_string(r.ephemeral_storage_bytes) + "|";
  for (const auto& [name, value] : *pod.labels) {
    key += name;
    key += '=';
    key += value;
    key += ',';
  }
  return key;
}

}  // namespace

bool SameSchedulingSpec(const PodState& a, const PodState& b) {
  return a.namespace_ == b.namespace_ && a.requests == b.requests &&
         a.labels == b.labels && a.node_selector == b.node_selector &&
         a.node_affinity == b.node_affinity && a.tolerations == b.tolerations &&
         a.host_ports == b.host_ports && a.affinity == b.affinity &&
         a.anti_affinity == b.anti_affinity && a.spread == b.spread &&
         a.volume_needs == b.volume_needs &&
         a.attached_volumes == b.attached_volumes &&
         a.inline_disks == b.inline_disks;
}

PodClasses ClassifyPods(const std::vector<const PodState*>& pods) {
  PodClasses out;
  out.class_of.resize(pods.size());
  std::unordered_map<std::string, std::vector<size_t>> by_bucket;
  for (size_t i = 0; i < pods.size(); ++i) {
    const PodState& pod = *pods[i];
    size_t found = out.classes.size();
    std::vector<size_t>& candidates = by_bucket[BucketKey(pod)];
    for (size_t c : candidates) {
      if (SameSchedulingSpec(*out.classes[c].representative, pod)) {
        found = c;
        break;
      }
    }
    if (found == out.classes.size()) candidates.push_back(found);
    if (found == out.classes.size()) out.classes.push_back({&pod, {}});
    out.classes[found].members.push_back(i);
    out.class_of[i] = found;
  }
  return out;
}

}  // namespace propscaler::nodescale
