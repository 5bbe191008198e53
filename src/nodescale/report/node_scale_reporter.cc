#include "nodescale/report/node_scale_reporter.h"

#include <glog/logging.h>

#include <sstream>
#include <utility>

#include "common/duration.h"
#include "common/metrics.h"

namespace propscaler::nodescale {
namespace {

void DeclareMetrics() {
  Metrics& m = GlobalMetrics();
  m.DeclareGauge("propscaler_unschedulable_pods",
                 "Pending pods the scheduler marked Unschedulable.");
  m.DeclareCounter("propscaler_scale_ups_total",
                   "Scale-ups requested, by node group.");
  m.DeclareCounter("propscaler_scale_up_failures_total",
                   "Scale-ups the provider refused or failed, by node group.");
  m.DeclareCounter("propscaler_scale_downs_total",
                   "Nodes removed, by node group.");
  m.DeclareGauge("propscaler_node_group_size",
                 "Node group sizes: min, max, target and ready.");
  m.DeclareGauge("propscaler_nodes",
                 "Registered nodes by readiness, as Cluster Autoscaler "
                 "counts them: ready, not_started (capacity still coming), "
                 "unready.");
  m.DeclareGauge("propscaler_pods_with_claims",
                 "Pods holding PersistentVolumeClaims, by whether some node "
                 "can take their volumes (fit=somewhere) or none "
                 "(fit=nowhere: the claim is missing, lost, unbound "
                 "Immediate, or its volume or class is missing).");
  m.DeclareCounter("propscaler_disruption_decisions_total",
                   "Disruption commands started, by method and action.");
  // Made at 0, so that a dashboard reads "none yet" rather than no data.
  for (DisruptionMethod method :
       {DisruptionMethod::kExpiry, DisruptionMethod::kEmptiness,
        DisruptionMethod::kDrift, DisruptionMethod::kMultiNode,
        DisruptionMethod::kSingleNode, DisruptionMethod::kPriority}) {
    for (const char* action : {"delete", "replace"}) {
      m.Add("propscaler_disruption_decisions_total",
            {{"method", std::string(DisruptionMethodName(method))},
             {"action", action}},
            0);
    }
  }
  m.DeclareCounter("propscaler_disruption_failed_validations_total",
                   "Consolidation commands rejected after the validation "
                   "delay, by method.");
  m.DeclareGauge("propscaler_disruption_eligible_nodes",
                 "Nodes a disruption method could take, by reason.");
  m.DeclareGauge("propscaler_disruption_allowed_disruptions",
                 "Disruptions the budgets allow now, by pool and reason.");
  m.DeclareGauge("propscaler_provisioning_requests",
                 "ProvisioningRequests by class and state: pending (to check, "
                 "or waiting to retry), provisioned (room booked), done "
                 "(booking over), failed, unsupported.");
  m.DeclareHistogram(
      "propscaler_provisioning_request_provisioned_seconds",
      "From a ProvisioningRequest's creation to its Provisioned=True.",
      {1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600});
  m.DeclareHistogram("propscaler_node_scale_loop_duration_seconds",
                     "Duration of one node-scale loop iteration, by kind: "
                     "\"full\" every --scan-interval, \"scale-up\" when a "
                     "batch of pending pods closes.",
                     {0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30});
  m.DeclareHistogram(
      "propscaler_pod_unschedulable_to_scale_up_seconds",
      "From a pod's PodScheduled=False (Unschedulable) condition to the "
      "provider call that asks for its node.",
      {0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 15, 30, 60});
}

const NodeGroup* FindGroup(const std::vector<NodeGroup>& groups,
                           const std::string& name) {
  for (const NodeGroup& group : groups) {
    if (group.name == name) return &group;
  }
  return nullptr;
}

}  // namespace

NodeScaleReporter::NodeScaleReporter(kube::EventRecorder* events,
                                     NodeScaleStatusBoard* board,
                                     const kube::ConfigMapClient* status_api,
                                     std::string ns,
                                     StatusConfigMapOptions status_map,
                                     CaMetricsOptions ca_metrics,
                                     std::string provider)
    : ModeReporter(events, board),
      status_api_(status_api),
      namespace_(std::move(ns)),
      status_map_(std::move(status_map)),
      ca_metrics_(ca_metrics),
      provider_(std::move(provider)) {
  DeclareMetrics();
  DeclareCaMetrics(ca_metrics_, &GlobalMetrics());
  DeclareKarpenterMetrics(&GlobalMetrics());
  DeclareKarpenterCounters(&GlobalMetrics());
}

void NodeScaleReporter::NodeEvent(const std::string& node, bool warning,
                                  const std::string& reason,
                                  const std::string& message) const {
  Event({{"v1", "Node", "", node, ""}, warning, reason, message});
}

void NodeScaleReporter::PodEvent(const LivePod& pod, bool warning,
                                 const std::string& reason,
                                 const std::string& message) const {
  Event({{"v1", "Pod", pod.state.namespace_, pod.state.name, pod.uid},
         warning,
         reason,
         message});
}

void NodeScaleReporter::RequestEvent(const kube::ProvisioningRequest& request,
                                     bool warning, const std::string& reason,
                                     const std::string& message) const {
  Event({{"autoscaling.x-k8s.io/v1", "ProvisioningRequest", request.namespace_,
          request.name, request.uid},
         warning,
         reason,
         message});
}

void NodeScaleReporter::ScaleUpEvents(
    const ScaleUpPlan& plan, const std::vector<NodeGroup>& groups,
    const std::map<std::string, const LivePod*>& pods) const {
  for (const GroupIncrease& increase : plan.increases) {
    const NodeGroup* group = FindGroup(groups, increase.group);
    if (group == nullptr) continue;
    const std::string message =
        "pod triggered scale-up: [" + DescribeIncrease(increase, *group) + "]";
    for (const std::string& key : increase.pods) {
      auto pod = pods.find(key);
      if (pod != pods.end()) {
        PodEvent(*pod->second, false, "TriggeredScaleUp", message);
      }
    }
  }
  for (const UnschedulablePod& unschedulable : plan.unschedulable) {
    auto pod = pods.find(unschedulable.pod);
    if (pod == pods.end()) continue;
    std::ostringstream message;
    message << "pod didn't trigger scale-up:";
    for (const auto& [group, reason] : *unschedulable.reasons) {
      message << " " << group << ": " << reason << ";";
    }
    PodEvent(*pod->second, false, "NotTriggerScaleUp", message.str());
  }
}

void NodeScaleReporter::StatusEvent(bool warning, const std::string& reason,
                                    const std::string& message) const {
  Event({{"v1", "ConfigMap", namespace_, status_map_.name},
         warning,
         reason,
         message});
}

void NodeScaleReporter::ClusterUnhealthy(const std::string& reason) const {
  StatusEvent(true, "ClusterUnhealthy", "Cluster is unhealthy: " + reason);
}

void NodeScaleReporter::ScaleUpTimedOut(const std::string& group,
                                        Duration within) const {
  CountCaFailedScaleUp("timeout", &GlobalMetrics());
  StatusEvent(true, "ScaleUpTimedOut",
              "Nodes added to group " + group + " failed to register within " +
                  SecondsText(within));
}

void NodeScaleReporter::UnregisteredRemoved(const std::string& group,
                                            int64_t count,
                                            const Status& status) const {
  const std::string nodes = std::to_string(count) + " unregistered node" +
                            (count == 1 ? "" : "s") + " of group " + group;
  if (status.ok()) {
    StatusEvent(false, "DeleteUnregistered", "Removed " + nodes);
  } else {
    StatusEvent(true, "DeleteUnregisteredFailed",
                "Failed to remove " + nodes + ": " + status.message());
  }
}

void NodeScaleReporter::Readiness(const ReadinessCounts& counts) const {
  Metrics& m = GlobalMetrics();
  m.Set("propscaler_nodes", {{"readiness", "ready"}},
        static_cast<double>(counts.ready));
  m.Set("propscaler_nodes", {{"readiness", "not_started"}},
        static_cast<double>(counts.not_started));
  m.Set("propscaler_nodes", {{"readiness", "unready"}},
        static_cast<double>(counts.unready));
}

void NodeScaleReporter::HeldForVolumes(const SharedPods& pods,
                                       const std::string& why) const {
  for (const LivePod& pod : pods) {
    if (!IsPending(pod.state) || !pod.unschedulable || pod.state.claims.empty())
      continue;
    PodEvent(pod, /*warning=*/true, "VolumesUnreadable",
             "pod is held, not scaled up for: " + why);
  }
}

void NodeScaleReporter::Claims(const ClaimCounts& claims) const {
  GlobalMetrics().Set(
      "propscaler_pods_with_claims", {{"fit", "somewhere"}},
      static_cast<double>(claims.pods_with_claims - claims.fitting_nowhere));
  GlobalMetrics().Set("propscaler_pods_with_claims", {{"fit", "nowhere"}},
                      static_cast<double>(claims.fitting_nowhere));
}

void NodeScaleReporter::UnschedulablePods(int64_t count) const {
  GlobalMetrics().Set("propscaler_unschedulable_pods", {},
                      static_cast<double>(count));
}

void NodeScaleReporter::ScaleUpRequested(const NodeGroup& group,
                                         int64_t nodes) const {
  GlobalMetrics().Add("propscaler_scale_ups_total",
                      {{"node_group", group.name}}, 1);
  CountCaScaleUp(nodes, &GlobalMetrics());
  CountKarpenterNodesCreated(group, nodes, &GlobalMetrics());
}

void NodeScaleReporter::ScaleUpFailed(const NodeGroup& group) const {
  GlobalMetrics().Add("propscaler_scale_up_failures_total",
                      {{"node_group", group.name}}, 1);
  CountCaFailedScaleUp("cloudProviderError", &GlobalMetrics());
  CountCaError("cloudProviderError", &GlobalMetrics());
  if (IsNodePoolGroup(group)) {
    CountKarpenterProviderError(provider_, "nodeclaim.lifecycle", "Create",
                                &GlobalMetrics());
  }
}

void NodeScaleReporter::ProviderUnreadable(bool node_pools) const {
  CountCaError("cloudProviderError", &GlobalMetrics());
  if (node_pools) {
    CountKarpenterProviderError(provider_, "provisioner", "GetInstanceTypes",
                                &GlobalMetrics());
  }
}

void NodeScaleReporter::DeleteFailed(const NodeGroup& group) const {
  if (IsNodePoolGroup(group)) {
    CountKarpenterProviderError(provider_, "nodeclaim.lifecycle", "Delete",
                                &GlobalMetrics());
  }
}

void NodeScaleReporter::NodeRemovedFor(const NodeState& node,
                                       const std::string& reason,
                                       Duration took) const {
  CountCaScaleDown(reason, &GlobalMetrics());
  CountKarpenterNodeTerminated(node, took, &GlobalMetrics());
}

void NodeScaleReporter::PodsEvicted(int64_t succeeded, int64_t failed) const {
  CountCaEvictions(succeeded, failed, &GlobalMetrics());
}

void NodeScaleReporter::PodWaited(Duration waited) const {
  GlobalMetrics().Observe("propscaler_pod_unschedulable_to_scale_up_seconds",
                          {}, InSeconds(waited));
}

void NodeScaleReporter::NodesRemoved(const std::string& group,
                                     size_t count) const {
  GlobalMetrics().Add("propscaler_scale_downs_total", {{"node_group", group}},
                      static_cast<double>(count));
}

void NodeScaleReporter::DisruptionStarted(
    const DisruptionCommand& command) const {
  GlobalMetrics().Add(
      "propscaler_disruption_decisions_total",
      {{"method", std::string(DisruptionMethodName(command.method))},
       {"action", std::string(command.action())}},
      1);
  CountKarpenterDecision(command, &GlobalMetrics());
}

void NodeScaleReporter::DisruptionFailed(
    const DisruptionCommand& command) const {
  CountKarpenterQueueFailure(command, &GlobalMetrics());
}

void NodeScaleReporter::ValidationFailed(DisruptionMethod method) const {
  GlobalMetrics().Add("propscaler_disruption_failed_validations_total",
                      {{"method", std::string(DisruptionMethodName(method))}},
                      1);
}

void NodeScaleReporter::DisruptionAllowances(const DisruptionPlan& plan) const {
  Metrics& m = GlobalMetrics();
  for (const auto& [reason, count] : plan.eligible) {
    m.Set("propscaler_disruption_eligible_nodes",
          {{"reason", std::string(DisruptionReasonName(reason))}},
          static_cast<double>(count));
  }
  for (const PoolAllowanceReport& report : plan.allowances) {
    m.Set("propscaler_disruption_allowed_disruptions",
          {{"pool", report.pool},
           {"reason", std::string(DisruptionReasonName(report.reason))}},
          static_cast<double>(report.allowed));
    LOG_IF(WARNING, !report.error.empty()) << report.error;
  }
  SetKarpenterDisruptionGauges(plan, &m);
}

void NodeScaleReporter::ProvisioningRequests(
    const std::map<std::pair<std::string, std::string>, int64_t>& counts)
    const {
  for (const auto& [key, count] : counts) {
    GlobalMetrics().Set("propscaler_provisioning_requests",
                        {{"class", key.first}, {"state", key.second}},
                        static_cast<double>(count));
  }
}

void NodeScaleReporter::Provisioned(Duration since_creation) const {
  GlobalMetrics().Observe("propscaler_provisioning_request_provisioned_seconds",
                          {}, InSeconds(since_creation));
}

void NodeScaleReporter::LoopDuration(const char* kind, Duration took) const {
  GlobalMetrics().Observe("propscaler_node_scale_loop_duration_seconds",
                          {{"kind", kind}}, InSeconds(took));
}

void NodeScaleReporter::SchedulingTook(Duration took) const {
  ObserveKarpenterScheduling(took, &GlobalMetrics());
}

void NodeScaleReporter::EvaluationTook(DisruptionMethod method,
                                       Duration took) const {
  ObserveKarpenterEvaluation(method, took, &GlobalMetrics());
}

void NodeScaleReporter::NodePools(const KarpenterClusterState& state) const {
  SetKarpenterGauges(state, &GlobalMetrics());
  pod_startups_.Observe(*state.pods, &GlobalMetrics());
}

void NodeScaleReporter::NodePoolsUnsynced() const {
  SetKarpenterUnsynced(&GlobalMetrics());
}

void NodeScaleReporter::Report(const StatusReport& report, bool write) const {
  Metrics& m = GlobalMetrics();
  for (const GroupStatus& group : report.groups) {
    const std::string& g = group.name;
    m.Set("propscaler_node_group_size", {{"node_group", g}, {"kind", "min"}},
          group.min);
    m.Set("propscaler_node_group_size", {{"node_group", g}, {"kind", "max"}},
          group.max);
    m.Set("propscaler_node_group_size", {{"node_group", g}, {"kind", "target"}},
          group.target);
    m.Set("propscaler_node_group_size", {{"node_group", g}, {"kind", "ready"}},
          group.ready);
  }
  UpdateBoard([&](StatusReport& shown) {
    History history = std::move(shown.history);
    RecordHistory(report, shown, &history);
    shown = report;
    shown.history = std::move(history);
  });
  if (!report.ca) return;
  last_ca_status_ = BuildCaStatus(*report.ca, last_ca_status_);
  SetCaGauges(last_ca_status_, report.pending_pods, ca_metrics_,
              &backoff_reasons_, &GlobalMetrics());
  if (!write || !status_map_.write) return;
  Status written = WriteStatusConfigMap(
      *status_api_, namespace_, status_map_.name,
      RenderCaStatusYaml(last_ca_status_), GoTimeString(last_ca_status_.time));
  LOG_IF(WARNING, !written.ok()) << written.message();
}

}  // namespace propscaler::nodescale
