// A node group as the providers describe it (the node groups file, Cluster
// API's MachineDeployments) and the node it would add. Plain structs.
#ifndef PROPSCALER_KUBE_NODE_GROUP_H_
#define PROPSCALER_KUBE_NODE_GROUP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kube/node_scale_objects.h"

namespace propscaler::kube {

struct NodeTemplate {
  Resources allocatable;
  Labels labels;
  std::vector<Taint> taints;
  bool operator==(const NodeTemplate&) const = default;
};

struct NodeGroup {
  std::string name;
  int64_t min_size = 0;
  int64_t max_size = 0;
  int64_t target_size = 0;
  std::optional<double> price;  // per node and hour; used by the price expander
  std::optional<NodeTemplate> declared_template;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_NODE_GROUP_H_
