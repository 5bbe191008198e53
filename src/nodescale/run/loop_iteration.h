// What one iteration of the node-scale loop works on after its decision
// (plan/iteration.h): the cluster as read at its start (the store's nodes
// and pods, shared, not copied; the provider's groups), the nodes and
// groups decided on with each node's readiness, the planner's snapshot,
// and the lines /status shows. Made by NodeScaleLoop, read by the
// status, dropped at the end of the iteration.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_ITERATION_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_ITERATION_H_

#include <optional>
#include <string>
#include <vector>

#include "nodescale/expander/priority.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/health/node_health.h"
#include "nodescale/run/cluster_view.h"

namespace propscaler::nodescale {

struct LoopIteration {
  TimePoint now;
  SharedNodes nodes;          // shared with the live store, not copied
  SharedPods pods;            // the store's, not copied
  int64_t unschedulable = 0;  // of `pods`: pending, marked unschedulable
  // nullopt until the store listed them.
  std::optional<std::vector<PdbState>> pdbs;
  std::vector<NodeGroup> groups;
  GroupOfNode group_of;
  std::vector<Readiness> readiness;  // of each of `nodes`
  ClusterSnapshot snapshot;
  // The priority expander's config as ScaleUp read it this iteration.
  PriorityConfig priorities;
  // /status's lines: each buffer's, each ProvisioningRequest's.
  std::vector<std::string> buffers;
  std::vector<std::string> provisioning_requests;

  const NodeGroup* Group(const std::string& name) const {
    return FindGroup(groups, name);
  }
  const LiveNode* Node(const std::string& name) const {
    return FindNode(nodes, name);
  }
  // The cluster as the executor and the queues see it.
  ClusterView View() const { return {now, &nodes, &pods, &groups, &group_of}; }
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_ITERATION_H_
