#include "replicas/cycle_reporter.h"

#include "common/metrics.h"

namespace propscaler {
namespace {

void DeclareReplicaMetrics(Metrics& metrics) {
  metrics.DeclareGauge("propscaler_desired_replicas",
                       "Replicas computed for each target.");
  metrics.DeclareGauge("propscaler_current_replicas",
                       "spec.replicas of each target as last read.");
  metrics.DeclareGauge("propscaler_nodes",
                       "Counted nodes, all and schedulable.");
  metrics.DeclareGauge("propscaler_cores",
                       "Allocatable cores of the counted nodes, all and "
                       "schedulable, rounded up.");
  metrics.DeclareGauge("propscaler_params_generation",
                       "How many distinct valid params have been applied.");
  metrics.DeclareCounter("propscaler_params_rejected_total",
                         "Cycles that found invalid params.");
  metrics.DeclareHistogram("propscaler_cycle_duration_seconds",
                           "Duration of replica-mode cycles.",
                           {0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10});
  metrics.DeclareCounter("propscaler_scaled_total",
                         "Times a target's replicas were changed.");
}

kube::ObjectRef TargetRef(const kube::ScaleTarget& target,
                          const std::string& ns) {
  return {target.ApiVersion(), target.ApiKind(), ns, target.name, ""};
}

}  // namespace

CycleReporter::CycleReporter(const Clock* clock, kube::EventRecorder* events,
                             ReplicaStatusBoard* board, std::string ns,
                             std::string configmap)
    : clock_(clock),
      events_(events),
      board_(board),
      namespace_(std::move(ns)),
      configmap_(std::move(configmap)) {
  DeclareReplicaMetrics(GlobalMetrics());
  board_->Update([this](ReplicaStatus& status) {
    status.namespace_ = namespace_;
    status.configmap = configmap_;
  });
}

void CycleReporter::ParamsAccepted(
    const std::map<std::string, std::string>& data, bool changed) {
  if (changed) ++params_generation_;
  GlobalMetrics().Set("propscaler_params_generation", {}, params_generation_);
  board_->Update([&](ReplicaStatus& status) { status.params_in_force = data; });
}

void CycleReporter::ParamsRejected(
    const std::map<std::string, std::string>& data, const std::string& reason) {
  GlobalMetrics().Add("propscaler_params_rejected_total");
  board_->Update([&](ReplicaStatus& status) {
    status.rejected_params = data;
    status.rejected_reason = reason;
  });
  if (events_ != nullptr) {
    events_->Record({{"v1", "ConfigMap", namespace_, configmap_, ""},
                     /*warning=*/true,
                     "InvalidParams",
                     reason});
  }
}

void CycleReporter::Counts(const ClusterCounts& counts) {
  Metrics& metrics = GlobalMetrics();
  metrics.Set("propscaler_nodes", {{"state", "all"}}, counts.total_nodes);
  metrics.Set("propscaler_nodes", {{"state", "schedulable"}},
              counts.schedulable_nodes);
  metrics.Set("propscaler_cores", {{"state", "all"}}, counts.total_cores);
  metrics.Set("propscaler_cores", {{"state", "schedulable"}},
              counts.schedulable_cores);
  board_->Update([&](ReplicaStatus& status) { status.counts = counts; });
}

void CycleReporter::TargetRead(const kube::ScaleTarget& target, int64_t current,
                               int64_t desired) {
  const std::string name = target.ToString();
  GlobalMetrics().Set("propscaler_desired_replicas", {{"target", name}},
                      desired);
  GlobalMetrics().Set("propscaler_current_replicas", {{"target", name}},
                      current);
  board_->Update([&](ReplicaStatus& status) {
    status.targets[name] = TargetStatus{desired, current, ""};
  });
}

void CycleReporter::TargetFailed(const kube::ScaleTarget& target,
                                 const std::string& error) {
  board_->Update([&](ReplicaStatus& status) {
    status.targets[target.ToString()].error = error;
  });
}

void CycleReporter::Scaled(const kube::ScaleTarget& target, int64_t from,
                           int64_t to, const ClusterCounts& counts,
                           const std::string& cause) {
  const std::string name = target.ToString();
  GlobalMetrics().Add("propscaler_scaled_total", {{"target", name}});
  GlobalMetrics().Set("propscaler_current_replicas", {{"target", name}}, to);
  board_->Update([&](ReplicaStatus& status) {
    status.targets[name].current = to;
    status.decisions.push_front({clock_->Now(), name, from, to, cause, counts});
    if (status.decisions.size() > ReplicaStatus::kMaxDecisions) {
      status.decisions.pop_back();
    }
  });
  if (events_ != nullptr) {
    events_->Record(
        {TargetRef(target, namespace_), /*warning=*/false, "ScaledReplicas",
         "Scaled from " + std::to_string(from) + " to " + std::to_string(to) +
             " replicas (" + DescribeCounts(counts) + "; " + cause + ")"});
  }
}

void CycleReporter::HpaConflictFound(const HpaConflict& conflict) {
  if (events_ == nullptr) return;
  events_->Record({TargetRef(conflict.target, namespace_), /*warning=*/true,
                   "ConflictingAutoscaler",
                   "HorizontalPodAutoscaler " + conflict.hpa + " also scales " +
                       conflict.target.ToString() +
                       ": the two will fight over its replicas; remove one"});
}

void CycleReporter::CycleFinished(const Status& status, Duration took) {
  Metrics& metrics = GlobalMetrics();
  metrics.Observe("propscaler_cycle_duration_seconds", {},
                  std::chrono::duration<double>(took).count());
  const auto now = clock_->Now();
  board_->Update([&](ReplicaStatus& board) {
    board.last_cycle = now;
    board.last_cycle_error = status.ok() ? "" : status.message();
  });
}

}  // namespace propscaler
