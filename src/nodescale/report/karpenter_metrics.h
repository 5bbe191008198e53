// Karpenter's own series, for the dashboards and alerts its users already
// have (the kubernetes-autoscaling-mixin's Karpenter dashboards and alerts,
// aws/karpenter-provider-aws's capacity dashboard): the names, types,
// labels and label values of sigs.k8s.io/karpenter's pkg/controllers/
// metrics, disruption/metrics.go and state/metrics.go. The gauges are set
// each loop in node-scale mode with NodePools; the disruption series
// wherever Karpenter's disruption runs. propscaler_* stays.
#ifndef PROPSCALER_NODESCALE_REPORT_KARPENTER_METRICS_H_
#define PROPSCALER_NODESCALE_REPORT_KARPENTER_METRICS_H_

#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>

#include "common/metrics.h"
#include "nodescale/domain/node_group.h"
#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/plan/disruption/disruption_command.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// What one loop read, as Karpenter's metrics controllers read its cluster
// state: every node, every pod, the NodePools and their catalogue, and the
// pods waiting for a node (its scheduler's queue).
struct KarpenterClusterState {
  const SharedNodes* nodes = nullptr;
  const SharedPods* pods = nullptr;
  const NodePoolCatalogue* catalogue = nullptr;
  int64_t pending = 0;
};

// The gauges, each family set whole from one loop's state (a node,
// NodePool or offering that is gone loses its series, as Karpenter's metric
// store replaces them):
// - per node (labels node_name, nodepool, zone, region, instance_type, arch,
//   os, capacity_type, windows_build from its labels, phase "", managed:
//   whether it has a NodePool, and resource_type): nodes_allocatable,
//   nodes_total_pod_requests (DaemonSet pods included),
//   nodes_total_daemon_requests, and the same of limits (cpu and memory):
//   nodes_total_pod_limits and nodes_total_daemon_limits; cpu in cores,
//   other resources in bytes or
//   counts, named as Karpenter names them (lower case, "-" as "_");
// - per NodePool (nodepool, resource_type): nodepools_usage (its nodes'
//   allocatable, which is their capacity under kwok, and "nodes"; cpu,
//   memory, pods, ephemeral_storage and nodes always, as Karpenter's
//   status.resources) and nodepools_limit (its spec.limits);
// - cloudprovider_instance_type_offering_price_estimate per offering
//   (instance_type, capacity_type, zone);
// - pods_state, every pod counted by the labels of Karpenter's that are not
//   the pod's own (scheduled, its node's nodepool, zone, arch,
//   capacity_type and instance_type, phase, ready, managed): Karpenter's
//   has one series per pod, with name, namespace, owner and node besides,
//   which its users find costly (kubernetes-sigs/karpenter#2622); every
//   dashboard sums it;
// - cluster_state_synced (1), cluster_state_node_count and
//   scheduler_queue_depth{controller="provisioner",scheduling_id=""}.
void DeclareKarpenterMetrics(Metrics* metrics);
void SetKarpenterGauges(const KarpenterClusterState& state, Metrics* metrics);
// cluster_state_synced 0: the loop could not read the cluster.
void SetKarpenterUnsynced(Metrics* metrics);

// karpenter_pods_startup_duration_seconds, a summary (quantiles 0, 0.5,
// 0.9, 0.99 and 1, as Karpenter's): each pod an earlier loop saw not Ready
// is observed once, when a loop sees it Ready, from its creationTimestamp
// to its Ready condition's lastTransitionTime (Karpenter observes the pods
// it saw Pending). A pod Ready at its first sight is not observed.
class PodStartups {
 public:
  void Observe(const SharedPods& pods, Metrics* metrics);

 private:
  std::unordered_set<std::string> waiting_;  // uids of pods not Ready yet
};

// Karpenter's counters, each counted where propscaler does what Karpenter
// counts: nodes_created_total{nodepool,zone} by `nodes` when a NodePool's
// candidate is grown; nodes_terminated_total{nodepool,zone} per node of a
// NodePool deleted, and nodes_termination_duration_seconds{nodepool} (a
// summary, as Karpenter's) from the
// start of its removal to its delete (a node without the
// karpenter.sh/nodepool label counts in neither);
// voluntary_disruption_decisions_total{decision,reason,consolidation_type}
// per command started.
// Declares the families below, counted as things happen (at start, so that
// each has its type before its first count).
void DeclareKarpenterCounters(Metrics* metrics);
void CountKarpenterNodesCreated(const NodeGroup& group, int64_t nodes,
                                Metrics* metrics);
void CountKarpenterNodeTerminated(const NodeState& node, Duration took,
                                  Metrics* metrics);
void CountKarpenterDecision(const DisruptionCommand& command, Metrics* metrics);
// Histograms with Karpenter's DurationBuckets:
// scheduler_scheduling_duration_seconds{controller="provisioner"}, a
// NodePools scale-up's scheduling simulation; voluntary_disruption_
// decision_evaluation_duration_seconds{reason,consolidation_type}, one
// disruption method's evaluation (reason: the method's, "underutilized"
// for consolidation).
void ObserveKarpenterScheduling(Duration took, Metrics* metrics);
void ObserveKarpenterEvaluation(DisruptionMethod method, Duration took,
                                Metrics* metrics);
// voluntary_disruption_queue_failures_total{decision,reason,
// consolidation_type}: a command started that failed in the queue (its
// replacement not launched, or not Ready in time).
void CountKarpenterQueueFailure(const DisruptionCommand& command,
                                Metrics* metrics);
// cloudprovider_errors_total{controller,method,provider,error}: a call of
// `provider` that failed, named as Karpenter's controllers and methods are
// ("nodeclaim.lifecycle" Create and Delete, "provisioner"
// GetInstanceTypes); `error` "", Karpenter's for an error of no known type.
void CountKarpenterProviderError(const std::string& provider,
                                 const char* controller, const char* method,
                                 Metrics* metrics);
// Whether a group is a NodePool's candidate: its nodes carry the
// karpenter.sh/nodepool label.
bool IsNodePoolGroup(const NodeGroup& group);
// voluntary_disruption_eligible_nodes{reason} and
// nodepools_allowed_disruptions{nodepool,reason} of one disruption pass.
void SetKarpenterDisruptionGauges(const DisruptionPlan& plan, Metrics* metrics);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_REPORT_KARPENTER_METRICS_H_
