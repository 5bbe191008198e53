// The snapshot the node-scale planner decides on: the compact pods and nodes
// kube/ decodes, with the planner's short names for them. Plain data, no I/O.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_SNAPSHOT_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_SNAPSHOT_H_

#include <vector>

#include "common/shared_list.h"
#include "kube/model/live_objects.h"
#include "kube/model/node_scale_objects.h"
#include "kube/model/resources.h"
#include "nodescale/domain/node_group.h"
#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {

using kube::HostPort;
using kube::LiveNode;
using kube::LivePod;
using kube::NodeSelectorRequirement;
using kube::NodeSelectorTerm;
using kube::NodeState;
using kube::NodeTemplate;
using kube::PdbState;
using kube::PodAffinityTerm;
using kube::PodPreferences;
using kube::PodState;
using kube::Resources;
using kube::SpreadConstraint;
using kube::Taint;
using kube::TaintEffect;
using kube::Toleration;
using kube::VolumeLimits;
using kube::WeightedNodeSelectorTerm;
using kube::WeightedPodAffinityTerm;

using kube::kHostnameLabel;
using kube::kMirrorPodAnnotation;
using kube::kSafeToEvictAnnotation;
using kube::kZoneLabel;

using kube::AnnotationOf;
using kube::EffectivePodRequests;
using kube::FirstShortResource;
using kube::Fits;
using kube::FitsExtended;
using kube::IsDaemonSetPod;
using kube::IsMirrorPod;
using kube::IsPending;
using kube::Max;
using kube::MaxCopies;
using kube::PdbCovers;
using kube::SubtractTimes;
using kube::TaintEffectName;
using kube::Times;

using PodList = SharedList<PodState>;
using SharedPods = SharedList<LivePod>;
using SharedNodes = SharedList<LiveNode>;

struct ClusterSnapshot {
  std::vector<NodeState> nodes;
  PodList pods;
  std::vector<PdbState> pdbs;  // PodDisruptionBudgets
  // Each node's group, by index, as the provider maps it ("": none). A
  // snapshot read from JSON (simulate, plan) leaves it empty: a node's
  // group is then its kNodeGroupLabel.
  std::vector<std::string> node_groups;

  std::string_view GroupOf(size_t node) const {
    return node < node_groups.size() ? std::string_view(node_groups[node])
                                     : NodeGroupOf(nodes[node]);
  }
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_SNAPSHOT_H_
