// Scheduling predicates: can this pod run on a node with these labels,
// taints, free resources and pods? The subset of kube-scheduler's filters
// that decides node scaling: resources (pod slots included), nodeSelector,
// required node affinity, taints, required pod anti-affinity on
// kubernetes.io/hostname, host ports, and what the pod's persistent
// volumes ask of a node's labels (resolved beforehand: volume_needs.h).
// Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_PREDICATES_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_PREDICATES_H_

#include <string>
#include <vector>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// Why a pod cannot go on a node; kNone when it can.
enum class Unfit {
  kNone,
  kNodeSelector,
  kNodeAffinity,
  kTaint,
  kResources,
  kAntiAffinity,
  kVolume,
  kVolumeLimits,  // more CSI volumes than an empty node attaches
};

bool MatchesNodeSelector(const PodState& pod, const Labels& node_labels);
bool MatchesNodeSelectorRequirement(const NodeSelectorRequirement& req,
                                    const Labels& node_labels);
bool MatchesNodeAffinity(const PodState& pod, const Labels& node_labels);
// Every requirement matches; a term without any matches no node.
bool MatchesNodeSelectorTerm(const NodeSelectorTerm& term,
                             const Labels& node_labels);

// The first of the pod's volume needs the node's labels do not meet, or
// null.
const kube::VolumeNeed* FirstUnmetVolumeNeed(const PodState& pod,
                                             const Labels& node_labels);

// NoSchedule and NoExecute taints need a toleration; PreferNoSchedule never
// blocks.
bool Tolerates(const Toleration& toleration, const Taint& taint);
const Taint* FirstUntoleratedTaint(const PodState& pod,
                                   const std::vector<Taint>& taints);

// Neither the pod's anti-affinity rejects a pod already on the node, nor a
// pod already there rejects it.
bool AntiAffinityAllows(const PodState& pod,
                        const std::vector<const PodState*>& pods_on_node);

// No pod already on the node uses one of the pod's host ports (same port
// and protocol).
bool HostPortsFree(const PodState& pod,
                   const std::vector<const PodState*>& pods_on_node);

// NodeVolumeLimits: for each CSI driver with a limit on the node, the
// unique volumes of the pods there and the pod's own stay within it (a
// volume two pods share counts once).
bool AttachLimitsAllow(const PodState& pod,
                       const std::vector<const PodState*>& pods_on_node,
                       const kube::VolumeLimits& limits);

// VolumeRestrictions' disk conflicts: no pod on the node uses one of the
// pod's inline disks, unless both only read it (an EBS volume conflicts
// however it is used).
bool InlineDisksFree(const PodState& pod,
                     const std::vector<const PodState*>& pods_on_node);

// The checks that depend only on the node, not on what runs there: node
// selector, node affinity, taints and volume needs, in that order.
Unfit CheckNodeConstraints(const PodState& pod, const Labels& node_labels,
                           const std::vector<Taint>& taints);

// A sentence for a kNodeSelector/kNodeAffinity/kTaint/kVolume failure,
// naming the label, taint or claim, e.g. "taint dedicated=gpu:NoSchedule
// not tolerated".
std::string DescribeNodeConstraintFailure(const PodState& pod,
                                          const Labels& node_labels,
                                          const std::vector<Taint>& taints);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_PREDICATES_H_
