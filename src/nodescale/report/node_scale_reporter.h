// Reports what node-scale mode's loop and its queues do
// (runtime/mode_reporter.h): Prometheus metrics (declared here, each set in
// one place), Kubernetes Events on nodes, pods and the status ConfigMap (as
// Cluster Autoscaler and Karpenter post them), and the status: the board
// that /status renders and, for the leader, the propscaler-status
// ConfigMap. Keeps the loop free of reporting detail.
#ifndef PROPSCALER_NODESCALE_REPORT_NODE_SCALE_REPORTER_H_
#define PROPSCALER_NODESCALE_REPORT_NODE_SCALE_REPORTER_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "common/status_board.h"
#include "kube/client/client.h"
#include "kube/controllers/event_recorder.h"
#include "kube/model/provisioning_request.h"
#include "nodescale/domain/node_group.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/disruption/disruption_budget.h"
#include "nodescale/plan/disruption/disruption_command.h"
#include "nodescale/plan/health/node_health.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/volume_needs.h"
#include "nodescale/report/ca_metrics.h"
#include "nodescale/report/karpenter_metrics.h"
#include "nodescale/report/status_report.h"
#include "runtime/mode_reporter.h"

namespace propscaler::nodescale {

using NodeScaleStatusBoard = StatusBoard<StatusReport>;

class NodeScaleReporter : public runtime::ModeReporter<StatusReport> {
 public:
  // `events` may be null (no Events). The status ConfigMap is written
  // through `status_api` in namespace `ns`, as `status_map` says.
  // `provider`: --cloud-provider, as Karpenter's series name it.
  NodeScaleReporter(kube::EventRecorder* events, NodeScaleStatusBoard* board,
                    const kube::ConfigMapClient* status_api, std::string ns,
                    StatusConfigMapOptions status_map = {},
                    CaMetricsOptions ca_metrics = {},
                    std::string provider = "kwok");

  // Events.
  void NodeEvent(const std::string& node, bool warning,
                 const std::string& reason, const std::string& message) const;
  void PodEvent(const LivePod& pod, bool warning, const std::string& reason,
                const std::string& message) const;
  // A Warning Event (VolumesUnreadable) on each unschedulable pod with
  // claims: held while RBAC keeps volume kinds from being read, `why`
  // naming the grant.
  void HeldForVolumes(const SharedPods& pods, const std::string& why) const;
  void RequestEvent(const kube::ProvisioningRequest& request, bool warning,
                    const std::string& reason,
                    const std::string& message) const;
  // TriggeredScaleUp on each pod a group's increase is for, and
  // NotTriggerScaleUp with every group's reason on each pod left out.
  void ScaleUpEvents(const ScaleUpPlan& plan,
                     const std::vector<NodeGroup>& groups,
                     const std::map<std::string, const LivePod*>& pods) const;
  void ClusterUnhealthy(const std::string& reason) const;
  // Cluster Autoscaler's, on the status ConfigMap: ScaleUpTimedOut when a
  // group's requested nodes are not Ready `within` its provision time;
  // DeleteUnregistered (or DeleteUnregisteredFailed with `status`) when
  // `count` of its instances that never registered are given up.
  void ScaleUpTimedOut(const std::string& group, Duration within) const;
  void UnregisteredRemoved(const std::string& group, int64_t count,
                           const Status& status) const;

  // Metrics.
  void Readiness(const ReadinessCounts& counts) const;
  void Claims(const ClaimCounts& claims) const;
  void UnschedulablePods(int64_t count) const;
  // Karpenter's nodes_created_total too for a NodePool's candidate.
  void ScaleUpRequested(const NodeGroup& group, int64_t nodes) const;
  void ScaleUpFailed(const NodeGroup& group) const;
  // The provider's groups could not be read (`node_pools`: with NodePools):
  // the loop failed.
  void ProviderUnreadable(bool node_pools) const;
  // The provider refused to delete nodes of `group`.
  void DeleteFailed(const NodeGroup& group) const;
  // From a pod's Unschedulable condition to the call asking for its node.
  void PodWaited(Duration waited) const;
  void NodesRemoved(const std::string& group, size_t count) const;
  // A node deleted, for Cluster Autoscaler's reason: "empty",
  // "underutilized" or "unready" (ca_metrics.h), `took` since its removal
  // started; Karpenter's nodes_terminated_total and
  // nodes_termination_duration_seconds for a NodePool's node
  // (karpenter_metrics.h).
  void NodeRemovedFor(const NodeState& node, const std::string& reason,
                      Duration took) const;
  void PodsEvicted(int64_t succeeded, int64_t failed) const;
  void DisruptionStarted(const DisruptionCommand& command) const;
  // A command started whose replacement could not be launched or did not
  // get Ready: its nodes stay.
  void DisruptionFailed(const DisruptionCommand& command) const;
  void ValidationFailed(DisruptionMethod method) const;
  // The nodes each method could take and what the budgets allow; logs a
  // pool's budget error.
  void DisruptionAllowances(const DisruptionPlan& plan) const;
  void LoopDuration(const char* kind, Duration took) const;
  // A NodePools scale-up's scheduling simulation, and one disruption
  // method's evaluation, took this long (karpenter_metrics.h).
  void SchedulingTook(Duration took) const;
  void EvaluationTook(DisruptionMethod method, Duration took) const;
  // Karpenter's gauges of this loop's cluster (karpenter_metrics.h), with
  // NodePools; Unsynced when the cluster could not be read.
  void NodePools(const KarpenterClusterState& state) const;
  void NodePoolsUnsynced() const;
  // ProvisioningRequests by (class, state), every state of a class seen
  // (0 where none is in it).
  void ProvisioningRequests(const std::map<std::pair<std::string, std::string>,
                                           int64_t>& counts) const;
  void Provisioned(Duration since_creation) const;

  // The groups' size gauges and the board; the ConfigMap too when `write`
  // (this process leads) and --write-status-configmap. Called from the
  // loop's thread only.
  void Report(const StatusReport& report, bool write) const;

 private:
  // An Event on the status ConfigMap.
  void StatusEvent(bool warning, const std::string& reason,
                   const std::string& message) const;

  const kube::ConfigMapClient* status_api_;
  const std::string namespace_;
  const StatusConfigMapOptions status_map_;
  // The last Cluster Autoscaler status written: each condition keeps its
  // transition time while its status stays.
  mutable CaStatus last_ca_status_;
  const CaMetricsOptions ca_metrics_;
  const std::string provider_;
  mutable CaBackoffReasonsSeen backoff_reasons_;
  mutable PodStartups pod_startups_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_REPORT_NODE_SCALE_REPORTER_H_
