// The bin-packing estimator: how many new nodes of one template the given
// pods need, by First-Fit Decreasing as Cluster Autoscaler does it. Pods are
// sorted by cpu/template_cpu + memory/template_memory, largest first, and
// each goes to the first simulated new node with room (resources, pod slots
// hostname anti-affinity and host ports), else to a new node while `max_nodes`
// allows. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_ESTIMATOR_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_ESTIMATOR_H_

#include <cstdint>
#include <vector>

#include "nodescale/plan/simulation/snapshot.h"
#include "nodescale/plan/simulation/topology.h"

namespace propscaler::nodescale {

// `count` interchangeable copies of one pod (a pod equivalence class).
struct PodCount {
  const PodState* pod = nullptr;
  int64_t count = 0;
};

// Where copies of one entry landed: `count` copies on new node `node`.
struct Placement {
  size_t entry = 0;  // index into the input
  int64_t node = 0;
  int64_t count = 0;
};

struct Estimate {
  int64_t node_count = 0;
  // In the order made; one entry's placements are contiguous.
  std::vector<Placement> placements;
  // Some pod was left out because max_nodes were already open.
  bool stopped_at_max_nodes = false;
  // Some pod does not fit even an empty new node.
  bool some_pod_too_big = false;
};

// Inter-pod constraints (topology.h) for an estimate: the cluster as placed
// so far and the labels every new node has (its template's). With a null
// cluster, or when no pod is constrained, the estimate packs by resources,
// host ports and hostname anti-affinity only. The estimate adds its new
// nodes and pods to the cluster's topology as it goes and takes them back
// before it returns (no copy of the cluster per estimate); it leaves it as
// it found it, but for terms it registered.
struct EstimateTopology {
  Topology* cluster = nullptr;
  const Labels* node_labels = nullptr;
};

// `pods` must already pass the template's node selector, affinity and taint
// checks; `free_per_node` is what an empty new node offers (DaemonSets
// taken out); `allocatable` weighs the sort score. Copies of an entry are
// placed in bulk, so the cost grows with entries and nodes, not pods; input
// already in packing order is not sorted again.
// `volume_limits`: the CSI attach limits of every new node (null: none).
Estimate EstimateNewNodes(const std::vector<PodCount>& pods,
                          const Resources& free_per_node,
                          const Resources& allocatable, int64_t max_nodes,
                          const EstimateTopology& topology = {},
                          const VolumeLimits* volume_limits = nullptr);

// The same for single pods; node_of_pod[i] is pod i's new node or -1.
struct PodEstimate {
  int64_t node_count = 0;
  std::vector<int64_t> node_of_pod;
  bool stopped_at_max_nodes = false;
  bool some_pod_too_big = false;
};
PodEstimate EstimateNewNodes(const std::vector<const PodState*>& pods,
                             const Resources& free_per_node,
                             const Resources& allocatable, int64_t max_nodes,
                             const EstimateTopology& topology = {},
                             const VolumeLimits* volume_limits = nullptr);

// CA's FFD score of a pod for a template.
double PackingScore(const Resources& requests, const Resources& allocatable);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_ESTIMATOR_H_
