// What one iteration of the node-scale loop works on: the cluster as read
// at its start (the store's nodes and pods, shared, not copied; the
// provider's groups; each node's readiness), the planner's snapshot built
// from it, and what its stages found on the way (buffers,
// ProvisioningRequests). Made by NodeScaleLoop::ReadCluster, handed to
// each stage in turn, dropped at the end of the iteration.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_ITERATION_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_ITERATION_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kube/model/capacity_buffer.h"
#include "kube/model/provisioning_request.h"
#include "kube/model/request_pod_template.h"
#include "nodescale/expander/priority.h"
#include "nodescale/plan/buffers/buffer_conditions.h"
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
  std::vector<BufferResolution> buffers;
  std::map<std::string, size_t> buffer_of_pod;  // virtual pod key -> buffer
  // The PodTemplates as listed, for the ProvisioningRequests' pods;
  // nullopt until listed.
  std::optional<kube::PodTemplateMap> pod_templates;
  // Each ProvisioningRequest: "namespace/name: where it stands".
  std::vector<std::string> provisioning_requests;
  // The best-effort-atomic-scale-up request due this iteration (one an
  // iteration, as Cluster Autoscaler), with its pods.
  struct AtomicRequest {
    kube::ProvisioningRequest request;
    std::vector<PodState> pods;
  };
  std::optional<AtomicRequest> atomic;

  const NodeGroup* Group(const std::string& name) const {
    return FindGroup(groups, name);
  }
  const LiveNode* Node(const std::string& name) const {
    return FindNode(nodes, name);
  }
  // The cluster as the executor and the queues see it.
  ClusterView View() const { return {now, &nodes, &pods, &groups, &group_of}; }
  // The pending pods by namespace/name.
  std::map<std::string, const LivePod*> PendingPodsByKey() const;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_ITERATION_H_
