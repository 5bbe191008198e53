// The shape of a node a group would add: what a pod sees of it (labels,
// taints, allocatable) and the annotations written on it.
#ifndef PROPSCALER_KUBE_MODEL_NODE_TEMPLATE_H_
#define PROPSCALER_KUBE_MODEL_NODE_TEMPLATE_H_

#include <vector>

#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

struct NodeTemplate {
  Resources allocatable;
  Labels labels;
  std::vector<Taint> taints;
  // Written on the nodes made from it (kwok: the template's hash); not part
  // of the shape a pod sees.
  Labels annotations;
  // CSI attach limits of the live node it was taken from (its CSINode);
  // used only with --enable-csi-node-aware-scheduling.
  VolumeLimits volume_limits;
  bool operator==(const NodeTemplate&) const = default;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_NODE_TEMPLATE_H_
