// Nodes on their way in: each node's readiness (plan/health/node_health.h:
// Ready, NotStarted or Unready, with --max-node-startup-time, startup
// taints and, with --enable-csi-node-aware-scheduling, its CSI drivers),
// and each group's asked-for capacity followed (plan/health/
// provision_tracker.h): a group whose nodes are not Ready within
// --max-node-provision-time is backed off and that capacity given up, its
// never-started nodes deleted and the replicas that never registered taken
// off its target, with Cluster Autoscaler's Events (ScaleUpTimedOut,
// DeleteUnregistered or DeleteUnregisteredFailed).
#ifndef PROPSCALER_NODESCALE_RUN_NODE_ARRIVALS_H_
#define PROPSCALER_NODESCALE_RUN_NODE_ARRIVALS_H_

#include <string>
#include <vector>

#include "kube/model/volumes.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class NodeArrivals {
 public:
  explicit NodeArrivals(LoopContext context) : c_(context) {}

  // Each of it.nodes's readiness.
  std::vector<Readiness> Classify(const LoopIteration& it) const;
  // The tracker told of each group's arrived nodes (it->readiness); gives
  // up the capacity of the groups it reports overdue. Whether nodes were
  // given up (it->nodes changed, so it->readiness is stale).
  bool Track(LoopIteration* it);

 private:
  // False when the node's CSINode lacks a driver of its group's remembered
  // template.
  bool CsiDriversRegistered(const NodeState& node, const std::string& group,
                            const kube::VolumeObjects& volumes) const;
  // Whether nodes were taken out of it->nodes.
  bool GiveUp(const NodeGroup& group, LoopIteration* it);

  LoopContext c_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_NODE_ARRIVALS_H_
