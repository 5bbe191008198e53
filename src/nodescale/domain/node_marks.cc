#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {

std::string_view NodeGroupOf(const kube::NodeState& node) {
  return kube::AnnotationOf(node.labels, kNodeGroupLabel);
}

}  // namespace propscaler::nodescale
