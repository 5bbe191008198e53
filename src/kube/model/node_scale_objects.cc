#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

std::string ClaimNameOf(const PodState& pod, const PodClaim& claim) {
  return claim.ephemeral ? pod.name + "-" + claim.name : claim.name;
}

std::string ClaimKeyOf(const PodState& pod, const PodClaim& claim) {
  return pod.namespace_ + "/" + ClaimNameOf(pod, claim);
}

bool IsPending(const PodState& pod) {
  return pod.node_name.empty() && !pod.terminated;
}

bool IsDaemonSetPod(const PodState& pod) {
  return pod.owner_kind == "DaemonSet";
}

bool IsMirrorPod(const PodState& pod) {
  return pod.annotations.contains(kMirrorPodAnnotation);
}

bool PdbCovers(const PdbState& pdb, const PodState& pod) {
  return !pdb.no_selector && pdb.namespace_ == pod.namespace_ &&
         pdb.selector.Matches(*pod.labels);
}

bool IsKeptPodAnnotation(std::string_view key) {
  return key == kSafeToEvictAnnotation || key == kMirrorPodAnnotation ||
         key == kDoNotDisruptAnnotation || key == kOwnDoNotDisruptAnnotation ||
         key == kPodDeletionCostAnnotation ||
         key == kConsumeProvisioningRequestAnnotation ||
         key == kDeprecatedConsumeAnnotation;
}

std::string_view AnnotationOf(const Labels& annotations, std::string_view key) {
  auto it = annotations.find(key);
  return it == annotations.end() ? std::string_view() : it->second;
}

void NotReadyWhileTainted(NodeState* node) {
  for (const Taint& taint : node->taints) {
    if (taint.key == "node.kubernetes.io/not-ready") node->ready = false;
  }
}

std::string_view TaintEffectName(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
  }
  return "";
}

}  // namespace propscaler::kube
