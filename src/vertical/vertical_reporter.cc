#include "vertical/vertical_reporter.h"

#include "common/metrics.h"

namespace propscaler {
namespace {

void DeclareVerticalMetrics(Metrics& metrics) {
  metrics.DeclareGauge("propscaler_vertical_nodes", "Counted nodes.");
  metrics.DeclareGauge("propscaler_vertical_cores",
                       "Counted cores (capacity, or allocatable with "
                       "--schedulable-nodes-only), rounded up.");
  metrics.DeclareGauge("propscaler_vertical_computed",
                       "Each configured container resource as computed, in "
                       "its unit (cores, bytes).");
  metrics.DeclareCounter("propscaler_vertical_resized_total",
                         "Patches of the target's container resources.");
  metrics.DeclareCounter("propscaler_vertical_pods_resized_in_place_total",
                         "Pods resized through pods/resize "
                         "(--resize=in-place).");
  metrics.DeclareCounter(
      "propscaler_vertical_in_place_fallbacks_total",
      "In-place resizes the kubelet refused or put off, by state "
      "(Deferred, Infeasible, Error): pods were replaced instead.");
  metrics.DeclareCounter("propscaler_vertical_config_rejected_total",
                         "Cycles that found an invalid config.");
}

// Where the config comes from, for /status.
std::string ConfigSource(const VerticalOptions& options) {
  std::string source;
  if (options.default_config) source = "--default-config";
  if (!options.config_file.empty()) {
    source += (source.empty() ? "" : " under ") +
              std::string("--config-file ") + options.config_file;
  }
  if (!options.configmap.empty()) {
    source += (source.empty() ? "" : " under ") + std::string("configmap ") +
              options.namespace_ + "/" + options.configmap;
  }
  return source;
}

void SetComputedMetrics(
    const VerticalCounts& counts,
    const std::map<std::string, ComputedResources>& computed) {
  Metrics& metrics = GlobalMetrics();
  metrics.Set("propscaler_vertical_nodes", {}, counts.nodes);
  metrics.Set("propscaler_vertical_cores", {}, counts.cores);
  for (const auto& [container, resources] : computed) {
    for (const auto& [resource, millis] : resources.requests) {
      metrics.Set("propscaler_vertical_computed",
                  {{"container", container},
                   {"side", "requests"},
                   {"resource", resource}},
                  millis / 1000.0);
    }
    for (const auto& [resource, millis] : resources.limits) {
      metrics.Set("propscaler_vertical_computed",
                  {{"container", container},
                   {"side", "limits"},
                   {"resource", resource}},
                  millis / 1000.0);
    }
  }
}

std::string ResizeMethodText(const VerticalOptions& options) {
  if (options.resize == ResizeMethod::kRollout) {
    return "patching the pod template (its controller replaces the pods)";
  }
  if (!options.pod_resize_served) {
    return "patching the pod template: --resize=in-place was asked, but the "
           "server does not serve pods/resize (Kubernetes 1.33+)";
  }
  return "resizing each running pod in place through pods/resize, one at a "
         "time (--resize=in-place)";
}

}  // namespace

std::string DescribeVerticalCounts(const VerticalCounts& counts) {
  return "nodes " + std::to_string(counts.nodes) + ", cores " +
         std::to_string(counts.cores);
}

std::string DescribeChanges(const std::vector<ResourceChange>& changes) {
  std::string out;
  for (const ResourceChange& change : changes) {
    out += (out.empty() ? "" : ", ") + change.ToString();
  }
  return out;
}

VerticalReporter::VerticalReporter(const Clock* clock,
                                   kube::EventRecorder* events,
                                   VerticalStatusBoard* board,
                                   const VerticalOptions& options)
    : ModeReporter(events, board),
      clock_(clock),
      namespace_(options.namespace_),
      configmap_(options.configmap),
      target_(options.target) {
  DeclareVerticalMetrics(GlobalMetrics());
  UpdateBoard([&](VerticalStatus& status) {
    status.namespace_ = namespace_;
    status.target = target_.ToString();
    status.counting = options.schedulable_nodes_only
                          ? "Ready, schedulable nodes and their allocatable "
                            "cores (--schedulable-nodes-only)"
                          : "every node and its capacity cores (as "
                            "cluster-proportional-vertical-autoscaler)";
    status.config_source = ConfigSource(options);
    status.resize_method = ResizeMethodText(options);
  });
}

void VerticalReporter::ConfigAccepted(const VerticalConfig& config) {
  UpdateBoard([&](VerticalStatus& status) {
    status.config_in_force = DescribeVerticalConfig(config);
    status.config_error.clear();
  });
}

void VerticalReporter::ConfigRejected(const std::string& error, bool first) {
  GlobalMetrics().Add("propscaler_vertical_config_rejected_total");
  if (first && !configmap_.empty()) {
    Event({{"v1", "ConfigMap", namespace_, configmap_, ""},
           /*warning=*/true,
           "InvalidConfig",
           error});
  }
  UpdateBoard([&](VerticalStatus& s) { s.config_error = error; });
}

void VerticalReporter::Computed(
    const VerticalCounts& counts,
    const std::map<std::string, ComputedResources>& computed) {
  SetComputedMetrics(counts, computed);
  const TimePoint now = clock_->Now();
  UpdateBoard([&](VerticalStatus& status) {
    status.counts = counts;
    status.computed = computed;
    status.history.Record("nodes", now, counts.nodes);
    status.history.Record("cores", now, counts.cores);
  });
}

void VerticalReporter::TargetRead(
    const std::vector<kube::ContainerResources>& containers) {
  const TimePoint now = clock_->Now();
  UpdateBoard([&](VerticalStatus& s) {
    s.current = containers;
    RecordResources(containers, now, &s.history);
  });
}

void VerticalReporter::Held(const std::vector<std::string>& held) {
  UpdateBoard([&](VerticalStatus& s) { s.held = held; });
}

void VerticalReporter::Resized(
    const std::vector<ResourceChange>& changes, const VerticalCounts& counts,
    const std::string& cause,
    const std::vector<kube::ContainerResources>& now_current) {
  GlobalMetrics().Add("propscaler_vertical_resized_total");
  TargetEvent(/*warning=*/false, "ResizedContainers",
              "set " + DescribeChanges(changes) + " (" +
                  DescribeVerticalCounts(counts) + ")");
  const TimePoint now = clock_->Now();
  UpdateBoard([&](VerticalStatus& status) {
    status.decisions.push_front({now, changes, counts, cause});
    if (status.decisions.size() > VerticalStatus::kMaxDecisions) {
      status.decisions.pop_back();
    }
    status.current = now_current;
    RecordResources(now_current, now, &status.history);
    status.history.Mark(now, "set " + DescribeChanges(changes));
  });
}

void VerticalReporter::TargetEvent(bool warning, const std::string& reason,
                                   const std::string& message) {
  Event({{"apps/v1", target_.ApiKind(), namespace_, target_.name, ""},
         warning,
         reason,
         message});
}

void VerticalReporter::InPlaceState(const std::string& state) {
  UpdateBoard([&](VerticalStatus& s) { s.in_place = state; });
}

void VerticalReporter::ResizedInPlace(
    const std::string& pod, const std::vector<ResourceChange>& changes,
    const VerticalCounts& counts, const std::string& cause) {
  GlobalMetrics().Add("propscaler_vertical_pods_resized_in_place_total");
  TargetEvent(/*warning=*/false, "ResizedPodInPlace",
              "pod " + pod + ": set " + DescribeChanges(changes) + " (" +
                  DescribeVerticalCounts(counts) + ")");
  const TimePoint now = clock_->Now();
  UpdateBoard([&](VerticalStatus& status) {
    status.history.Mark(now,
                        "pod " + pod + ": set " + DescribeChanges(changes));
    status.decisions.push_front({now, changes, counts, cause, pod});
    if (status.decisions.size() > VerticalStatus::kMaxDecisions) {
      status.decisions.pop_back();
    }
  });
}

void VerticalReporter::FellBack(const std::string& pod, kube::ResizeState state,
                                const std::string& message,
                                const std::string& instead) {
  GlobalMetrics().Add("propscaler_vertical_in_place_fallbacks_total",
                      {{"state", kube::ResizeStateName(state)}});
  const std::string text = "the in-place resize of pod " + pod + " is " +
                           kube::ResizeStateName(state) +
                           (message.empty() ? "" : " (" + message + ")") +
                           "; " + instead;
  TargetEvent(/*warning=*/true, "InPlaceResizeFallback", text);
  UpdateBoard([&](VerticalStatus& s) { s.in_place_fallback = text; });
}

void VerticalReporter::InPlaceUnavailable() {
  TargetEvent(/*warning=*/true, "InPlaceResizeUnavailable",
              "--resize=in-place: the server does not serve pods/resize "
              "(Kubernetes 1.33+, or the InPlacePodVerticalScaling gate off); "
              "patching the pod template instead, which replaces the pods");
}

void VerticalReporter::CycleFinished(TimePoint start, const Status& status) {
  UpdateBoard([&](VerticalStatus& s) {
    s.last_cycle = start;
    s.last_cycle_error = status.ok() ? "" : status.message();
  });
}

}  // namespace propscaler
