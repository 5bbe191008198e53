// Node-scale mode's flags, named and defaulted as Cluster Autoscaler's
// (--scan-interval=10s, --scale-down-unneeded-time=10m, ...), turned into
// the loop's options. Errors name the flag and its bad value.
#ifndef PROPSCALER_APP_NODE_SCALE_FLAGS_H_
#define PROPSCALER_APP_NODE_SCALE_FLAGS_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "nodescale/domain/instance_type.h"
#include "nodescale/provider/clusterapi_discovery.h"
#include "nodescale/report/ca_metrics.h"
#include "nodescale/run/loop.h"

namespace propscaler {

struct NodeScaleSettings {
  nodescale::LoopOptions loop;
  std::string cloud_provider;
  std::string node_group_config;
  std::set<std::string, std::less<>> kwok_not_ready_groups;
  std::set<std::string, std::less<>> kwok_unregistered_groups;
  // The catalogue kwok's NodePools draw from (--instance-types-file-path).
  std::vector<nodescale::InstanceType> kwok_instance_types;
  // The Cluster API management cluster (Cluster Autoscaler's
  // --cloud-config and --clusterapi-cloud-config-authoritative).
  std::string cloud_config;
  bool cloud_config_authoritative = false;
  // --node-group-auto-discovery (clusterapi): none admits every group.
  std::vector<nodescale::ClusterApiDiscoverySpec> cluster_api_discovery;
  // --max-failing-time: how long the watches may fail before /healthz
  // does; empty: the health state's stall limit.
  std::optional<Duration> max_failing_time;
  // --write-status-configmap, --status-config-map-name.
  nodescale::StatusConfigMapOptions status_map;
  nodescale::CaMetricsOptions ca_metrics;  // cluster_autoscaler_* series
};

// From the flags; `ns` is the namespace already resolved (may be set
// later). Errors name the flag, its bad value and what would be valid.
Result<NodeScaleSettings> NodeScaleSettingsFromFlags(const std::string& ns);

}  // namespace propscaler

#endif  // PROPSCALER_APP_NODE_SCALE_FLAGS_H_
