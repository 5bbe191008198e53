// The cluster as one pass of the command or removal queue sees it: the
// iteration's nodes and groups, the pods (the store's latest, for a drain),
// and which group each node is in. Pointers into the iteration.
#ifndef PROPSCALER_NODESCALE_RUN_CLUSTER_VIEW_H_
#define PROPSCALER_NODESCALE_RUN_CLUSTER_VIEW_H_

#include <vector>

#include "common/clock.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct ClusterView {
  TimePoint now;
  const SharedNodes* nodes = nullptr;
  const SharedPods* pods = nullptr;
  const std::vector<NodeGroup>* groups = nullptr;
  const GroupOfNode* group_of = nullptr;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_CLUSTER_VIEW_H_
