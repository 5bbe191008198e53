// The nodes the node groups are still making: each group's target size
// above its registered nodes, as new nodes of its template
// (ChooseTemplate) with the room its DaemonSets leave. Cluster
// Autoscaler's snapshot holds them beside the registered nodes, so that
// what they will take asks for nothing more. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_UP_UPCOMING_NODES_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_UP_UPCOMING_NODES_H_

#include <deque>
#include <vector>

#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/node_bins.h"

namespace propscaler::nodescale {

struct UpcomingNodes {
  // One per group with nodes coming; a deque: the bins point into them.
  std::deque<NodeTemplate> templates;
  std::vector<Bin> bins;  // one per upcoming node
};

UpcomingNodes UpcomingNodesOf(const ClusterSnapshot& snapshot,
                              const std::vector<NodeGroup>& groups,
                              const ScaleUpMemory& memory,
                              const ScaleUpConfig& config);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_UP_UPCOMING_NODES_H_
