// The labels, taints and annotations node-scale mode puts on nodes or reads
// from them, spelled as Cluster Autoscaler and propscaler's providers spell
// them. (The pod annotations it reads are in kube/model/node_scale_objects.h,
// since the pod decoders keep exactly those.)
#ifndef PROPSCALER_NODESCALE_DOMAIN_NODE_MARKS_H_
#define PROPSCALER_NODESCALE_DOMAIN_NODE_MARKS_H_

#include <algorithm>
#include <string_view>

#include "kube/model/node_scale_objects.h"

namespace propscaler::nodescale {

// Whether the node carries a taint of this key (any effect).
inline bool HasTaint(const kube::NodeState& node, std::string_view key) {
  return std::any_of(node.taints.begin(), node.taints.end(),
                     [&](const kube::Taint& t) { return t.key == key; });
}

// The kwok provider's nodes name their group so.
inline constexpr std::string_view kNodeGroupLabel = "propscaler.io/node-group";
inline constexpr std::string_view kScaleDownDisabledAnnotation =
    "cluster-autoscaler.kubernetes.io/scale-down-disabled";
// Cluster Autoscaler's taints, which propscaler sets as it does: on a node
// found unneeded (PreferNoSchedule), and on a node being removed
// (NoSchedule).
inline constexpr std::string_view kDeletionCandidateTaint =
    "DeletionCandidateOfClusterAutoscaler";
inline constexpr std::string_view kToBeDeletedTaint =
    "ToBeDeletedByClusterAutoscaler";
// On a node propscaler made: the hash of its group's template then, so a
// changed template shows the node drifted.
inline constexpr std::string_view kTemplateHashAnnotation =
    "propscaler.io/template-hash";
// On a node of a NodePool: the hash of the NodePool's template then (its
// labels, taints, startup taints, expireAfter, terminationGracePeriod), so
// a changed NodePool shows the node drifted, as Karpenter's
// karpenter.sh/nodepool-hash does on its NodeClaims.
inline constexpr std::string_view kNodePoolHashAnnotation =
    "propscaler.io/nodepool-hash";

// The node's group from kNodeGroupLabel; empty when it has none.
std::string_view NodeGroupOf(const kube::NodeState& node);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_NODE_MARKS_H_
