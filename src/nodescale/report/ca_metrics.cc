#include "nodescale/report/ca_metrics.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <string>

namespace propscaler::nodescale {
namespace {

constexpr char kPrefix[] = "cluster_autoscaler_";

std::string Name(const char* name) { return std::string(kPrefix) + name; }

double UnixSeconds(TimePoint time) {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::seconds>(time.time_since_epoch())
          .count());
}

void SetNodeCounts(const CaNodeCounts& counts, Metrics* m) {
  const std::string name = Name("nodes_count");
  // CA counts unready nodes with those being deleted out of its buckets.
  m->Set(name, {{"state", "ready"}}, static_cast<double>(counts.ready));
  m->Set(name, {{"state", "unready"}}, static_cast<double>(counts.unready));
  m->Set(name, {{"state", "notStarted"}},
         static_cast<double>(counts.not_started));
  m->Set(name, {{"state", "suspended"}}, static_cast<double>(counts.suspended));
  m->Set(name, {{"state", "longUnregistered"}},
         static_cast<double>(counts.long_unregistered));
  m->Set(name, {{"state", "unregistered"}},
         static_cast<double>(counts.unregistered));
}

// CA's: every reason a group was backed off for stays, at 0 unless it is
// the reason now; a group's first sight adds "" (never removed).
void SetBackoff(const CaGroupStatus& group, CaBackoffReasonsSeen* seen,
                Metrics* m) {
  std::set<std::string>& reasons = (*seen)[group.name];
  reasons.insert("");
  std::string now;
  if (group.backoff) {
    now = group.backoff->code.empty() ? "unknown" : group.backoff->code;
    reasons.insert(now);
  }
  for (const std::string& reason : reasons) {
    m->Set(Name("node_group_backoff_status"),
           {{"node_group", group.name}, {"reason", reason}},
           group.backoff && reason == now ? 1 : 0);
  }
}

// The labels CA's node counters carry beside their own.
MetricLabels WithGpuLabels(MetricLabels labels) {
  for (const char* name : {"gpu_resource_name", "gpu_name", "dra_drivers"}) {
    labels.emplace_back(name, "");
  }
  return labels;
}

void SetGroup(const CaGroupStatus& group, CaBackoffReasonsSeen* seen,
              Metrics* m) {
  const MetricLabels labels = {{"node_group", group.name}};
  m->Set(Name("node_group_min_count"), labels,
         static_cast<double>(group.min_size));
  m->Set(Name("node_group_max_count"), labels,
         static_cast<double>(group.max_size));
  m->Set(Name("node_group_target_count"), labels,
         static_cast<double>(group.target));
  m->Set(Name("node_group_healthiness"), labels,
         group.health.status == "Healthy" ? 1 : 0);
  SetBackoff(group, seen, m);
}

}  // namespace

void DeclareCaMetrics(const CaMetricsOptions& options, Metrics* m) {
  m->DeclareGauge(Name("cluster_safe_to_autoscale"),
                  "Whether or not cluster is healthy enough for autoscaling. "
                  "1 if it is, 0 otherwise.");
  m->DeclareGauge(Name("nodes_count"), "Number of nodes in cluster.");
  m->DeclareGauge(Name("node_groups_count"),
                  "Number of node groups managed by CA.");
  m->DeclareGauge(Name("unschedulable_pods_count"),
                  "Number of unschedulable pods in the cluster.");
  m->DeclareGauge(Name("max_nodes_count"),
                  "Maximum number of nodes in all node groups");
  m->DeclareGauge(Name("unneeded_nodes_count"),
                  "Number of nodes currently considered unneeded by CA.");
  m->DeclareGauge(Name("last_activity"),
                  "Last time certain part of CA logic executed.");
  m->DeclareCounter(Name("scaled_up_nodes_total"),
                    "Number of nodes added by CA.");
  m->DeclareCounter(Name("failed_scale_ups_total"),
                    "Number of times scale-up operation has failed.");
  m->DeclareCounter(Name("scaled_down_nodes_total"),
                    "Number of nodes removed by CA.");
  m->DeclareCounter(Name("evicted_pods_total"), "Number of pods evicted by CA");
  m->DeclareCounter(Name("errors_total"),
                    "The number of CA loops failed due to an error.");
  for (const char* type :
       {"cloudProviderError", "apiCallError", "internalError"}) {
    m->Add(Name("errors_total"), {{"type", type}}, 0);
  }
  m->Add(Name("scaled_up_nodes_total"), WithGpuLabels({}), 0);
  for (const char* reason : {"cloudProviderError", "apiCallError", "timeout"}) {
    m->Add(Name("failed_scale_ups_total"), WithGpuLabels({{"reason", reason}}),
           0);
  }
  for (const char* reason : {"empty", "underutilized", "unready"}) {
    m->Add(Name("scaled_down_nodes_total"), WithGpuLabels({{"reason", reason}}),
           0);
  }
  for (const char* result : {"succeeded", "failed"}) {
    m->Add(Name("evicted_pods_total"), {{"eviction_result", result}}, 0);
  }
  if (!options.per_node_group) return;
  m->DeclareGauge(Name("node_group_min_count"),
                  "Minimum number of nodes in the node group");
  m->DeclareGauge(Name("node_group_max_count"),
                  "Maximum number of nodes in the node group");
  m->DeclareGauge(Name("node_group_target_count"),
                  "Target number of nodes in the node group by CA.");
  m->DeclareGauge(Name("node_group_healthiness"),
                  "Whether or not node group is healthy enough for "
                  "autoscaling. 1 if it is, 0 otherwise.");
  m->DeclareGauge(Name("node_group_backoff_status"),
                  "Whether or not node group is backoff for not autoscaling. "
                  "1 if it is, 0 otherwise.");
}

void SetCaGauges(const CaStatus& status, int64_t unschedulable,
                 const CaMetricsOptions& options, CaBackoffReasonsSeen* seen,
                 Metrics* m) {
  m->Set(Name("cluster_safe_to_autoscale"), {},
         status.health.status == "Healthy" ? 1 : 0);
  SetNodeCounts(status.counts, m);
  m->Set(Name("node_groups_count"), {{"node_group_type", "autoscaled"}},
         static_cast<double>(status.groups.size()));
  m->Set(Name("node_groups_count"), {{"node_group_type", "autoprovisioned"}},
         0);
  m->Set(Name("unschedulable_pods_count"), {{"type", "unschedulable"}},
         static_cast<double>(unschedulable));
  m->Set(Name("unschedulable_pods_count"), {{"type", "scheduler_unprocessed"}},
         0);
  int64_t max_nodes = 0;
  for (const CaGroupStatus& group : status.groups) max_nodes += group.max_size;
  if (options.max_nodes_total > 0) {
    max_nodes = std::min(max_nodes, options.max_nodes_total);
  }
  m->Set(Name("max_nodes_count"), {}, static_cast<double>(max_nodes));
  m->Set(Name("unneeded_nodes_count"), {},
         static_cast<double>(status.candidates));
  m->Set(Name("last_activity"), {{"activity", "main"}},
         UnixSeconds(status.time));
  if (status.health.status == "Healthy") {
    m->Set(Name("last_activity"), {{"activity", "autoscaling"}},
           UnixSeconds(status.time));
    // The scale-up runs for pending pods; the scale-down pass has its probe.
    if (unschedulable > 0) {
      m->Set(Name("last_activity"), {{"activity", "scaleUp"}},
             UnixSeconds(status.time));
    }
  }
  if (status.scale_down.last_probe) {
    m->Set(Name("last_activity"), {{"activity", "scaleDown"}},
           UnixSeconds(*status.scale_down.last_probe));
  }
  if (!options.per_node_group) return;
  for (const CaGroupStatus& group : status.groups) SetGroup(group, seen, m);
}

void CountCaScaleUp(int64_t nodes, Metrics* m) {
  m->Add(Name("scaled_up_nodes_total"), WithGpuLabels({}),
         static_cast<double>(nodes));
}

void CountCaFailedScaleUp(const std::string& reason, Metrics* m) {
  m->Add(Name("failed_scale_ups_total"), WithGpuLabels({{"reason", reason}}));
}

void CountCaScaleDown(const std::string& reason, Metrics* m) {
  m->Add(Name("scaled_down_nodes_total"), WithGpuLabels({{"reason", reason}}));
}

void CountCaEvictions(int64_t succeeded, int64_t failed, Metrics* m) {
  m->Add(Name("evicted_pods_total"), {{"eviction_result", "succeeded"}},
         static_cast<double>(succeeded));
  m->Add(Name("evicted_pods_total"), {{"eviction_result", "failed"}},
         static_cast<double>(failed));
}

void CountCaError(const std::string& type, Metrics* m) {
  m->Add(Name("errors_total"), {{"type", type}});
}

}  // namespace propscaler::nodescale
