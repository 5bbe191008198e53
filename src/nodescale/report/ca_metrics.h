// Cluster Autoscaler's own series, for the dashboards and alerts its users
// already have (the kubernetes-autoscaling-mixin's): the names, types,
// labels and label values of CA's pkg/metrics/metrics.go, set each loop
// from the same status its ConfigMap shows (ca_status.h). The per-group
// gauges only with --emit-per-nodegroup-metrics, as CA. propscaler_* stays.
#ifndef PROPSCALER_NODESCALE_REPORT_CA_METRICS_H_
#define PROPSCALER_NODESCALE_REPORT_CA_METRICS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "common/metrics.h"
#include "nodescale/report/ca_status.h"

namespace propscaler::nodescale {

struct CaMetricsOptions {
  bool per_node_group = false;  // --emit-per-nodegroup-metrics
  int64_t max_nodes_total = 0;  // --max-nodes-total; 0: no limit
};

// Each group's backoff reasons shown so far (their series stay, at 0).
using CaBackoffReasonsSeen = std::map<std::string, std::set<std::string>>;

void DeclareCaMetrics(const CaMetricsOptions& options, Metrics* metrics);

// One loop's gauges: cluster_safe_to_autoscale, nodes_count{state},
// node_groups_count{node_group_type}, unschedulable_pods_count{type},
// max_nodes_count, unneeded_nodes_count, last_activity{activity} (in Unix
// seconds: main at `status.time`; autoscaling too when healthy, and
// scaleUp when pods are pending then; scaleDown at the last scale-down
// pass), and per group
// node_group_{min,max,target}_count, node_group_healthiness and
// node_group_backoff_status{node_group,reason} (1 for the reason it is
// backed off for now, 0 for one it was backed off for before; "" at 0 for
// a group never backed off).
void SetCaGauges(const CaStatus& status, int64_t unschedulable,
                 const CaMetricsOptions& options, CaBackoffReasonsSeen* seen,
                 Metrics* metrics);

// CA's counters (their GPU and DRA labels "": propscaler does not classify
// GPUs), each made at 0 by DeclareCaMetrics as CA makes them:
// scaled_up_nodes_total by `nodes` at each increase asked for;
// failed_scale_ups_total{reason} ("cloudProviderError" when the provider
// refused, "timeout" when the nodes did not come in time);
// scaled_down_nodes_total{reason} per node deleted ("empty", "underutilized"
// when pods were evicted from it, "unready" when it was not Ready);
// evicted_pods_total{eviction_result} ("succeeded", "failed").
void CountCaScaleUp(int64_t nodes, Metrics* metrics);
void CountCaFailedScaleUp(const std::string& reason, Metrics* metrics);
void CountCaScaleDown(const std::string& reason, Metrics* metrics);
void CountCaEvictions(int64_t succeeded, int64_t failed, Metrics* metrics);
// errors_total{type}: a loop that failed, by CA's error type
// ("cloudProviderError" when the provider could not be read or refused a
// scale-up; made at 0 with "apiCallError" and "internalError").
void CountCaError(const std::string& type, Metrics* metrics);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_REPORT_CA_METRICS_H_
