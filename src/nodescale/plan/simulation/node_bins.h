// Bins: nodes (existing, upcoming or simulated) as places pods can be put,
// with their free resources and the pods already there, so that placements
// made during one planning pass are accounted for. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_BINS_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_BINS_H_

#include <vector>

#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct Bin {
  const Labels* labels = nullptr;
  const std::vector<Taint>* taints = nullptr;
  Resources free;
  std::vector<const PodState*> pods;
  bool accepts_pods = true;  // false for cordoned and not-ready nodes
  // CSI attach limits; null: none (templates and upcoming nodes, whose
  // CSINode does not exist yet, as in Cluster Autoscaler by default, unless
  // --enable-csi-node-aware-scheduling).
  const kube::VolumeLimits* volume_limits = nullptr;
};

// One bin per node, in order: free = allocatable minus the requests of the
// unfinished pods bound to it. (Pointers into `pods`: never a temporary.)
std::vector<Bin> BinsFromNodes(const std::vector<NodeState>& nodes,
                               const PodList& pods);
std::vector<Bin> BinsFromNodes(const std::vector<NodeState>& nodes,
                               PodList&& pods) = delete;

// An upcoming node of a group: the template with `free` left, and
// `volume_limits` (may be null: none).
Bin BinFromTemplate(const NodeTemplate& node_template, const Resources& free,
                    const VolumeLimits* volume_limits = nullptr);

// All predicates: node constraints, resources, hostname anti-affinity,
// host ports, CSI attach limits.
bool BinAccepts(const Bin& bin, const PodState& pod);

void PlaceOnBin(const PodState& pod, Bin* bin);
void RemoveFromBin(const PodState& pod, Bin* bin);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_BINS_H_
