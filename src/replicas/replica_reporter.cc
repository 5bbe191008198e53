#include "replicas/replica_reporter.h"

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

ReplicaReporter::ReplicaReporter(const Clock* clock,
                                 kube::EventRecorder* events,
                                 ReplicaStatusBoard* board,
                                 const AutoscalerOptions& options)
    : ModeReporter(events, board),
      clock_(clock),
      namespace_(options.namespace_),
      configmap_(options.configmap) {
  DeclareReplicaMetrics(GlobalMetrics());
  UpdateBoard([this](ReplicaStatus& status) {
    status.namespace_ = namespace_;
    status.configmap = configmap_;
  });
}

void ReplicaReporter::ParamsAccepted(
    const std::map<std::string, std::string>& data, bool changed) {
  if (changed) ++params_generation_;
  GlobalMetrics().Set("propscaler_params_generation", {}, params_generation_);
  UpdateBoard([&](ReplicaStatus& status) { status.params_in_force = data; });
}

void ReplicaReporter::ParamsRejected(
    const std::map<std::string, std::string>& data, const std::string& reason) {
  GlobalMetrics().Add("propscaler_params_rejected_total");
  UpdateBoard([&](ReplicaStatus& status) {
    status.rejected_params = data;
    status.rejected_reason = reason;
  });
  Event({{"v1", "ConfigMap", namespace_, configmap_, ""},
         /*warning=*/true,
         "InvalidParams",
         reason});
}

void ReplicaReporter::Counts(const ClusterCounts& counts) {
  Metrics& metrics = GlobalMetrics();
  metrics.Set("propscaler_nodes", {{"state", "all"}}, counts.total_nodes);
  metrics.Set("propscaler_nodes", {{"state", "schedulable"}},
              counts.schedulable_nodes);
  metrics.Set("propscaler_cores", {{"state", "all"}}, counts.total_cores);
  metrics.Set("propscaler_cores", {{"state", "schedulable"}},
              counts.schedulable_cores);
  const TimePoint now = clock_->Now();
  UpdateBoard([&](ReplicaStatus& status) {
    status.counts = counts;
    status.history.Record("nodes", now, counts.total_nodes);
    status.history.Record("schedulable nodes", now, counts.schedulable_nodes);
    status.history.Record("cores", now, counts.total_cores);
    status.history.Record("schedulable cores", now, counts.schedulable_cores);
  });
}

void ReplicaReporter::TargetRead(const kube::ScaleTarget& target,
                                 int64_t current, int64_t desired,
                                 const std::string& via) {
  const std::string name = target.ToString();
  GlobalMetrics().Set("propscaler_desired_replicas", {{"target", name}},
                      desired);
  GlobalMetrics().Set("propscaler_current_replicas", {{"target", name}},
                      current);
  const TimePoint now = clock_->Now();
  UpdateBoard([&](ReplicaStatus& status) {
    status.targets[name] = TargetStatus{desired, current, "", via};
    if (current >= 0)
      status.history.Record(kReplicasSeries + name, now, current);
  });
}

void ReplicaReporter::TargetsAre(const std::set<std::string>& targets) {
  UpdateBoard([&](ReplicaStatus& status) {
    std::erase_if(status.targets, [&](const auto& entry) {
      if (targets.count(entry.first) > 0) return false;
      GlobalMetrics().Remove("propscaler_desired_replicas",
                             {{"target", entry.first}});
      GlobalMetrics().Remove("propscaler_current_replicas",
                             {{"target", entry.first}});
      return true;
    });
  });
}

void ReplicaReporter::TargetFailed(const kube::ScaleTarget& target,
                                   const std::string& error) {
  UpdateBoard([&](ReplicaStatus& status) {
    status.targets[target.ToString()].error = error;
  });
}

void ReplicaReporter::Decided(const kube::ScaleTarget& target,
                              const std::string& what, int64_t from, int64_t to,
                              const ClusterCounts& counts,
                              const std::string& cause) {
  const std::string name = target.ToString();
  GlobalMetrics().Add("propscaler_scaled_total", {{"target", name}});
  GlobalMetrics().Set("propscaler_current_replicas", {{"target", name}}, to);
  const TimePoint now = clock_->Now();
  UpdateBoard([&](ReplicaStatus& status) {
    status.targets[name].current = to;
    status.history.Record(kReplicasSeries + name, now, to);
    status.history.Mark(
        now, what + ": " + std::to_string(from) + " to " + std::to_string(to));
    status.decisions.push_front({now, what, from, to, cause, counts});
    if (status.decisions.size() > ReplicaStatus::kMaxDecisions) {
      status.decisions.pop_back();
    }
  });
}

void ReplicaReporter::Scaled(const kube::ScaleTarget& target, int64_t from,
                             int64_t to, const ClusterCounts& counts,
                             const std::string& cause) {
  Decided(target, target.ToString(), from, to, counts, cause);
  Event({TargetRef(target, namespace_), /*warning=*/false, "ScaledReplicas",
         "Scaled from " + std::to_string(from) + " to " + std::to_string(to) +
             " replicas (" + DescribeCounts(counts) + "; " + cause + ")"});
}

void ReplicaReporter::FloorSet(const kube::ScaleTarget& target,
                               const std::string& hpa,
                               const std::string& hpa_version, int64_t from,
                               int64_t to, const ClusterCounts& counts,
                               const std::string& cause) {
  Decided(target, target.ToString() + " (minReplicas of " + hpa + ")", from, to,
          counts, cause);
  Event({{"autoscaling/" + hpa_version, "HorizontalPodAutoscaler", namespace_,
          hpa, ""},
         /*warning=*/false,
         "SetMinReplicas",
         "Set minReplicas from " + std::to_string(from) + " to " +
             std::to_string(to) + ", the proportional floor of " +
             target.ToString() + " (" + DescribeCounts(counts) + "; " + cause +
             ")"});
}

void ReplicaReporter::HpaConflictFound(const HpaConflict& conflict) {
  Event({TargetRef(conflict.target, namespace_), /*warning=*/true,
         "ConflictingAutoscaler",
         "HorizontalPodAutoscaler " + conflict.hpa + " also scales " +
             conflict.target.ToString() +
             ": the two will fight over its replicas; remove one"});
}

void ReplicaReporter::CycleFinished(const Status& status, Duration took) {
  Metrics& metrics = GlobalMetrics();
  metrics.Observe("propscaler_cycle_duration_seconds", {}, InSeconds(took));
  const auto now = clock_->Now();
  UpdateBoard([&](ReplicaStatus& board) {
    board.last_cycle = now;
    board.last_cycle_error = status.ok() ? "" : status.message();
  });
}

}  // namespace propscaler
