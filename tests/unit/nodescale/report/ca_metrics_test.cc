#include "nodescale/report/ca_metrics.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

CaStatus TwoGroups() {
  CaStatus status;
  status.time = TimePoint(std::chrono::seconds(1'764'000'000));
  status.health.status = "Healthy";
  status.counts = {.ready = 4,
                   .not_started = 1,
                   .unready = 2,
                   .unregistered = 3,
                   .long_unregistered = 1};
  status.candidates = 2;
  CaGroupStatus small{
      .name = "small", .target = 5, .min_size = 1, .max_size = 10};
  small.health.status = "Healthy";
  CaGroupStatus big{.name = "big", .target = 2, .max_size = 4};
  big.health.status = "Unhealthy";
  big.backoff = BackoffReason{"QUOTA_EXCEEDED", "no quota"};
  status.groups = {small, big};
  return status;
}

TEST(CaMetricsTest, TheClusterWideSeriesAsClusterAutoscalerNamesThem) {
  Metrics m;
  CaBackoffReasonsSeen seen;
  const CaMetricsOptions options{.max_nodes_total = 12};
  DeclareCaMetrics(options, &m);
  SetCaGauges(TwoGroups(), 7, options, &seen, &m);
  EXPECT_EQ(m.Value("cluster_autoscaler_cluster_safe_to_autoscale"), 1);
  EXPECT_EQ(m.Value("cluster_autoscaler_nodes_count", {{"state", "ready"}}), 4);
  EXPECT_EQ(
      m.Value("cluster_autoscaler_nodes_count", {{"state", "notStarted"}}), 1);
  EXPECT_EQ(m.Value("cluster_autoscaler_nodes_count", {{"state", "unready"}}),
            2);
  EXPECT_EQ(
      m.Value("cluster_autoscaler_nodes_count", {{"state", "unregistered"}}),
      3);
  EXPECT_EQ(m.Value("cluster_autoscaler_nodes_count",
                    {{"state", "longUnregistered"}}),
            1);
  EXPECT_EQ(m.Value("cluster_autoscaler_node_groups_count",
                    {{"node_group_type", "autoscaled"}}),
            2);
  EXPECT_EQ(m.Value("cluster_autoscaler_unschedulable_pods_count",
                    {{"type", "unschedulable"}}),
            7);
  // 10 + 4 over the groups, at most --max-nodes-total.
  EXPECT_EQ(m.Value("cluster_autoscaler_max_nodes_count"), 12);
  EXPECT_EQ(m.Value("cluster_autoscaler_unneeded_nodes_count"), 2);
  EXPECT_EQ(m.Value("cluster_autoscaler_last_activity", {{"activity", "main"}}),
            1'764'000'000);
  EXPECT_EQ(
      m.Value("cluster_autoscaler_last_activity", {{"activity", "scaleUp"}}),
      1'764'000'000)
      << "pods were pending";
  EXPECT_EQ(m.Families().count("cluster_autoscaler_node_group_max_count"), 0u)
      << "per-group series only with --emit-per-nodegroup-metrics";
}

TEST(CaMetricsTest, PerGroupSeriesAndBackoffReasonsThatStay) {
  Metrics m;
  CaBackoffReasonsSeen seen;
  const CaMetricsOptions options{.per_node_group = true};
  DeclareCaMetrics(options, &m);
  CaStatus status = TwoGroups();
  SetCaGauges(status, 0, options, &seen, &m);
  const MetricLabels small = {{"node_group", "small"}};
  const MetricLabels big = {{"node_group", "big"}};
  EXPECT_EQ(m.Value("cluster_autoscaler_node_group_min_count", small), 1);
  EXPECT_EQ(m.Value("cluster_autoscaler_node_group_max_count", small), 10);
  EXPECT_EQ(m.Value("cluster_autoscaler_node_group_target_count", big), 2);
  EXPECT_EQ(m.Value("cluster_autoscaler_node_group_healthiness", small), 1);
  EXPECT_EQ(m.Value("cluster_autoscaler_node_group_healthiness", big), 0);
  const std::string backoff = "cluster_autoscaler_node_group_backoff_status";
  EXPECT_EQ(
      m.Value(backoff, {{"node_group", "big"}, {"reason", "QUOTA_EXCEEDED"}}),
      1);
  EXPECT_EQ(m.Families().at(backoff).series.count(
                "{node_group=\"small\",reason=\"\"}"),
            1u);
  // The backoff ends: its reason's series stays, at 0.
  status.groups[1].backoff.reset();
  SetCaGauges(status, 0, options, &seen, &m);
  EXPECT_EQ(m.Families().at(backoff).series.count(
                "{node_group=\"big\",reason=\"QUOTA_EXCEEDED\"}"),
            1u);
  EXPECT_EQ(
      m.Value(backoff, {{"node_group", "big"}, {"reason", "QUOTA_EXCEEDED"}}),
      0);
}

TEST(CaMetricsTest, CountersStartAtZeroAndCount) {
  Metrics m;
  DeclareCaMetrics({}, &m);
  const MetricLabels gpu = {
      {"gpu_resource_name", ""}, {"gpu_name", ""}, {"dra_drivers", ""}};
  auto with = [&](MetricLabels labels) {
    labels.insert(labels.end(), gpu.begin(), gpu.end());
    return labels;
  };
  const auto& families = m.Families();
  EXPECT_EQ(families.at("cluster_autoscaler_failed_scale_ups_total")
                .series.count("{reason=\"timeout\",gpu_resource_name=\"\","
                              "gpu_name=\"\",dra_drivers=\"\"}"),
            1u);
  EXPECT_EQ(families.at("cluster_autoscaler_evicted_pods_total")
                .series.count("{eviction_result=\"failed\"}"),
            1u);
  CountCaScaleUp(3, &m);
  CountCaFailedScaleUp("cloudProviderError", &m);
  CountCaScaleDown("empty", &m);
  CountCaEvictions(4, 1, &m);
  EXPECT_EQ(families.at("cluster_autoscaler_errors_total")
                .series.count("{type=\"apiCallError\"}"),
            1u);
  CountCaError("cloudProviderError", &m);
  EXPECT_EQ(m.Value("cluster_autoscaler_errors_total",
                    {{"type", "cloudProviderError"}}),
            1);
  EXPECT_EQ(m.Value("cluster_autoscaler_scaled_up_nodes_total", gpu), 3);
  EXPECT_EQ(m.Value("cluster_autoscaler_failed_scale_ups_total",
                    with({{"reason", "cloudProviderError"}})),
            1);
  EXPECT_EQ(m.Value("cluster_autoscaler_scaled_down_nodes_total",
                    with({{"reason", "empty"}})),
            1);
  EXPECT_EQ(m.Value("cluster_autoscaler_evicted_pods_total",
                    {{"eviction_result", "succeeded"}}),
            4);
}

}  // namespace
}  // namespace propscaler::nodescale
