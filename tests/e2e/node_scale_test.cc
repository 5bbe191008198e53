// End-to-end: propscaler --mode=node-scale with the kwok provider against
// the simulated API server, timers shortened by flags.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "common/utc_time.h"
#include "e2e/chromium.h"
#include "e2e/metrics_wait.h"
#include "e2e/node_scale_fixture.h"
#include "e2e/prometheus.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

// Node group `name` of the status ConfigMap's Cluster Autoscaler YAML (a
// null node, not a map, while there is none), a copy that outlives the parsed
// document.
YAML::Node CaGroup(const sim::FakeApiServer& server, const std::string& name) {
  auto data = server.ConfigMapData(kNamespace, "propscaler-status");
  if (!data) return YAML::Node();
  const YAML::Node status = YAML::Load((*data)["status"]);
  if (!status["nodeGroups"]) return YAML::Node();
  for (const YAML::Node& group : status["nodeGroups"]) {
    if (group["name"].as<std::string>() == name) return YAML::Clone(group);
  }
  return YAML::Node();
}

TEST_F(NodeScaleTest, PendingPodsCreateExactlyTheNeededNodesOnce) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  for (int i = 0; i < 6; ++i) CreatePod("web-" + std::to_string(i), "1500m");
  auto propscaler = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("small-").size() == 3; },
                        seconds(15)))
      << propscaler->Report();
  // That there is never a second scale-up is shown in virtual time
  // (NodeScaleScenarioTest.PendingPodsCreateExactlyTheNeededNodesOnce).
  EXPECT_TRUE(
      WaitUntil([&] { return CountEvents("default", "TriggeredScaleUp") == 6; },
                seconds(5)));
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto status = server_.ConfigMapData(kNamespace, "propscaler-status");
        return status && (*status)["status"].find("  name: \"small\"\n") !=
                             std::string::npos;
      },
      seconds(5)));
}

// Storage capacity end to end: the binary finds CSIStorageCapacities
// served (storage.k8s.io/v1 here), watches them and the CSIDrivers, and a
// pod whose WaitForFirstConsumer claim has room only in zone b gets a zone-b
// node, though least-waste would pick zone a's smaller nodes.
TEST_F(NodeScaleTest, AClaimWithRoomOnlyInZoneBGetsAZoneBNode) {
  auto zonal = [](const std::string& name, const std::string& zone,
                  const std::string& cpu) {
    std::string group = GroupJson(name, 0, 10, cpu, "8Gi");
    const std::string labels = R"("labels":{})";
    group.replace(
        group.find(labels), labels.size(),
        R"("labels":{"topology.kubernetes.io/zone":")" + zone + R"("})");
    return group;
  };
  PutGroups({zonal("zone-a", "a", "2"), zonal("zone-b", "b", "16")});
  for (
      const auto& [path, body] :
      std::vector<std::pair<std::string, std::string>>{
          {"/apis/storage.k8s.io/v1/csidrivers",
           R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver",)"
           R"("metadata":{"name":"ebs.csi.aws.com"},)"
           R"("spec":{"storageCapacity":true}})"},
          {"/apis/storage.k8s.io/v1/storageclasses",
           R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",)"
           R"("metadata":{"name":"zonal"},"provisioner":"ebs.csi.aws.com",)"
           R"("volumeBindingMode":"WaitForFirstConsumer"})"},
          {"/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities",
           R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",)"
           R"("metadata":{"name":"room-b","namespace":"default"},)"
           R"("storageClassName":"zonal","capacity":"100Gi","nodeTopology":)"
           R"({"matchLabels":{"topology.kubernetes.io/zone":"b"}}})"},
          {"/api/v1/namespaces/default/persistentvolumeclaims",
           R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",)"
           R"("metadata":{"name":"data","namespace":"default"},)"
           R"("spec":{"storageClassName":"zonal","accessModes":)"
           R"(["ReadWriteOnce"],"resources":{"requests":{"storage":"10Gi"}}}})"}}) {
    Status created = server_.CreateObject(path, body);
    ASSERT_TRUE(created.ok()) << path << ": " << created.message();
  }
  std::string pod = sim::PodJson("db-0", "1", "");
  const std::string containers = R"("containers":)";
  pod.replace(pod.find(containers), containers.size(),
              R"("volumes":[{"name":"data","persistentVolumeClaim":)"
              R"({"claimName":"data"}}],"containers":)");
  ASSERT_TRUE(
      server_.CreateObject("/api/v1/namespaces/default/pods", pod).ok());
  auto propscaler = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("zone-b-").size() == 1; },
                        seconds(15)))
      << propscaler->Report();
  EXPECT_TRUE(NodesWithPrefix("zone-a-").empty()) << propscaler->Report();
  EXPECT_EQ(propscaler->Output().find("serves no CSIStorageCapacity"),
            std::string::npos)
      << propscaler->Report();
}

// --once: one iteration on one list of each collection, then exit 0; the
// scale-up is made (leader election is not waited for) and nothing runs on.
TEST_F(NodeScaleTest, OnceRunsOneIterationAndExits) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  for (int i = 0; i < 3; ++i) CreatePod("web-" + std::to_string(i), "1500m");
  auto propscaler = Start({"--once", "--leader-elect=true"});
  const std::optional<int> code = propscaler->WaitForExit(seconds(20));
  ASSERT_TRUE(code.has_value()) << propscaler->Report();
  EXPECT_EQ(*code, 0) << propscaler->Report();
  EXPECT_EQ(NodesWithPrefix("small-").size(), 2u) << propscaler->Report();
  EXPECT_EQ(CountEvents("default", "TriggeredScaleUp"), 3);
}

// A --once that cannot read the cluster exits 1, saying what failed.
TEST_F(NodeScaleTest, OnceThatCannotListExitsOne) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  server_.Stop();
  auto propscaler = Start({"--once"});
  const std::optional<int> code = propscaler->WaitForExit(seconds(60));
  ASSERT_TRUE(code.has_value()) << propscaler->Report();
  EXPECT_EQ(*code, 1) << propscaler->Report();
  EXPECT_NE(propscaler->Output().find("listing pods"), std::string::npos)
      << propscaler->Report();
}

TEST_F(NodeScaleTest, MetricsReportPodsGroupsAndScaleUps) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  for (int i = 0; i < 2; ++i) CreatePod("web-" + std::to_string(i), "1500m");
  const int port = FreePort();
  auto propscaler = Start(
      {"--scale-down-enabled=false", "--healthz-port=" + std::to_string(port)});
  EXPECT_TRUE(WaitForMetrics(
      port,
      {"propscaler_scale_ups_total{node_group=\"small\"} 1",
       "# TYPE propscaler_unschedulable_pods gauge",
       "propscaler_node_group_size{node_group=\"small\",kind=\"max\"} 10",
       "# TYPE propscaler_node_scale_loop_duration_seconds histogram",
       "# TYPE propscaler_scale_downs_total counter",
       "propscaler_api_requests_total{verb=\"POST\""},
      seconds(15)))
      << propscaler->Report();
}

// Every panel of the shipped node-scale dashboard has data after a
// scale-up for pending pods.
TEST_F(NodeScaleTest, TheShippedDashboardsQueriesHaveData) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  // Marked unschedulable a moment ago, as the scheduler writes it: its wait
  // is observed (the latency panel).
  std::string pod = sim::PodJson("web-0", "1500m", "");
  const std::string reason = R"("reason":"Unschedulable")";
  pod.replace(
      pod.find(reason), reason.size(),
      reason + R"(,"lastTransitionTime":")" +
          FormatUtc(std::chrono::system_clock::now(), "%Y-%m-%dT%H:%M:%SZ") +
          "\"");
  ASSERT_TRUE(
      server_.CreateObject("/api/v1/namespaces/default/pods", pod).ok());
  const int port = FreePort();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitForMetrics(
      port, {"propscaler_scale_ups_total{node_group=\"small\"} 1"},
      seconds(15)))
      << propscaler->Report();
  const std::vector<std::string> queries =
      DashboardQueries("propscaler-node-scale");
  ASSERT_FALSE(queries.empty());
  EXPECT_TRUE(PrometheusScrapes(port, queries)) << propscaler->Report();
}

TEST_F(NodeScaleTest, PrometheusScrapesTheDocumentedSeries) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  CreatePod("web-0", "1500m");
  const int port = FreePort();
  auto propscaler = Start(
      {"--scale-down-enabled=false", "--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitForMetrics(
      port, {"propscaler_scale_ups_total{node_group=\"small\"} 1"},
      seconds(15)))
      << propscaler->Report();
  EXPECT_TRUE(PrometheusScrapes(
      port, {"up{job=\"propscaler\"} == 1",
             "propscaler_scale_ups_total{node_group=\"small\"} == 1",
             "propscaler_node_group_size{node_group=\"small\",kind="
             "\"max\"} == 10",
             "propscaler_node_scale_loop_duration_seconds_count > 0",
             "propscaler_last_cycle_timestamp_seconds > 0",
             "propscaler_build_info == 1", "process_max_fds > 0"}))
      << propscaler->Report();
}

// Cluster Autoscaler's dashboards and alerts read propscaler as they read
// CA: the kubernetes-autoscaling-mixin's expressions (a94c079,
// prometheus_alerts.yaml and dashboards_out/...-ca.json, transcribed with
// the scrape job's name for job="cluster-autoscaler", $cluster empty and
// each alert's threshold swapped for the value this cluster gives) each
// return a sample through a real Prometheus.
TEST_F(NodeScaleTest, TheAutoscalingMixinsClusterAutoscalerQueriesWork) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  CreatePod("web-0", "1500m");
  const int port = FreePort();
  auto propscaler = Start({"--emit-per-nodegroup-metrics",
                           "--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitForMetrics(
      port,
      {"cluster_autoscaler_node_group_target_count{node_group=\"small\"} 1",
       "cluster_autoscaler_last_activity{activity=\"scaleDown\"}"},
      seconds(15)))
      << propscaler->Report();
  const std::string job = R"(job="propscaler")";
  const std::string dash = R"(cluster="",job=~"propscaler")";
  EXPECT_TRUE(PrometheusScrapes(
      port,
      {// ClusterAutoscalerNodeCountNearCapacity: 1 node of at most 10.
       "sum(cluster_autoscaler_nodes_count{" + job +
           "}) by (cluster, namespace, job) / "
           "sum(cluster_autoscaler_max_nodes_count{" +
           job + "}) by (cluster, namespace, job) * 100 == 10",
       // ClusterAutoscalerUnschedulablePods.
       "sum(cluster_autoscaler_unschedulable_pods_count{" + job +
           "}) by (cluster, namespace, job) >= 0",
       // ClusterAutoscalerNodeGroupAtCapacity: target 1 of max 10.
       "(avg(cluster_autoscaler_node_group_target_count{" + job +
           "}) by (cluster, namespace, job, node_group) / "
           "max(cluster_autoscaler_node_group_max_count{" +
           job + "}) by (cluster, namespace, job, node_group) * 100) == 10",
       // ClusterAutoscalerNodeGroupUnhealthy, ...NoHealthyNodeGroups.
       "max(cluster_autoscaler_node_group_healthiness{" + job +
           "}) by (cluster, namespace, job, node_group) == 1",
       "sum(cluster_autoscaler_node_group_healthiness{" + job +
           "}) by (cluster, namespace, job) == 1",
       // The dashboard's summary, activity and node group panels.
       "round(sum(cluster_autoscaler_max_nodes_count{" + dash + "})) == 10",
       "round(sum(cluster_autoscaler_node_groups_count{" + dash + "})) == 1",
       "round(sum(cluster_autoscaler_nodes_count{" + dash +
           ",state=\"ready\"}) / sum(cluster_autoscaler_nodes_count{" + dash +
           "}) * 100) >= 0",
       "sum(cluster_autoscaler_cluster_safe_to_autoscale{" + dash + "}) == 1",
       "time() - max(cluster_autoscaler_last_activity{" + dash +
           ",activity=\"scaleUp\"}) >= 0",
       "time() - max(cluster_autoscaler_last_activity{" + dash +
           ",activity=\"scaleDown\"}) >= 0",
       "round(sum(cluster_autoscaler_nodes_count{" + dash + "}) by (state))",
       "round(sum(cluster_autoscaler_unneeded_nodes_count{" + dash + "}))",
       "count(cluster_autoscaler_node_group_min_count{" + dash + "}) == 1",
       // The activity panels' counters ($__rate_interval as 1m).
       "round(sum(increase(cluster_autoscaler_scaled_up_nodes_total{" + dash +
           "}[1m])))",
       "round(sum(increase(cluster_autoscaler_scaled_down_nodes_total{" + dash +
           "}[1m])))",
       "round(sum(increase(cluster_autoscaler_evicted_pods_total{" + dash +
           "}[1m])) by (eviction_result))",
       "round(sum(increase(cluster_autoscaler_unschedulable_pods_count{" +
           dash + "}[1m])) by (type))",
       "round(sum(cluster_autoscaler_node_group_healthiness{" + dash +
           "}) / count(cluster_autoscaler_node_group_healthiness{" + dash +
           "}) * 100) == 100"}))
      << propscaler->Report();
}

// Karpenter's dashboards and alerts read propscaler with NodePools as they
// read Karpenter: the kubernetes-autoscaling-mixin's expressions (a94c079,
// prometheus_alerts.yaml and dashboards_out/...-karpenter-{over,act,perf,
// costs}.json), transcribed with the scrape job's name for job="karpenter",
// $cluster empty, every other variable ".*", $__rate_interval as 1m and each
// alert's threshold swapped for the value this cluster gives, each return a
// sample. One NodePool of 4-cpu nodes (3.9 cpu for pods); two 3-cpu pods
// get a node each, one is bound (and then Ready: its startup observed) and
// the other deleted, so its node goes by emptiness.
TEST_F(NodeScaleTest, TheAutoscalingMixinsKarpenterQueriesWork) {
  ASSERT_TRUE(
      server_
          .CreateObject(
              "/apis/karpenter.sh/v1/nodepools",
              R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool",)"
              R"("metadata":{"name":"general"},"spec":{)"
              R"("limits":{"cpu":"100"},"disruption":{)"
              R"("consolidationPolicy":"WhenEmptyOrUnderutilized",)"
              R"("consolidateAfter":"0s","budgets":[{"nodes":"100%"}]},)"
              R"("template":{"spec":{"nodeClassRef":{)"
              R"("group":"karpenter.kwok.sh","kind":"KWOKNodeClass",)"
              R"("name":"default"},"requirements":[)"
              R"({"key":"node.kubernetes.io/instance-type","operator":"In",)"
              R"("values":["c-4x-amd64-linux"]},)"
              R"({"key":"karpenter.sh/capacity-type","operator":"In",)"
              R"("values":["on-demand"]}]}}}})")
          .ok());
  CreatePod("web-0", "3");
  CreatePod("web-1", "3");
  const int port = FreePort();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("general-").size() == 2; },
                        seconds(15)))
      << propscaler->Report();
  const std::vector<std::string> nodes = NodesWithPrefix("general-");
  BindPod("web-0", nodes[0]);
  DeletePod("web-1");
  // Seen bound and not Ready, then Ready: its startup is observed.
  ASSERT_TRUE(
      WaitForMetrics(port,
                     {R"(node_name=")" + nodes[0] +
                      R"(",phase="",managed="true",resource_type="cpu"} 3)"
                      "\n"},
                     seconds(15)))
      << propscaler->Report();
  PatchPod(
      "web-0",
      R"({"status":{"phase":"Running","conditions":[)"
      R"({"type":"PodScheduled","status":)"
      R"("True"},{"type":"Ready","status":"True","lastTransitionTime":")" +
          FormatUtc(std::chrono::system_clock::now(), "%Y-%m-%dT%H:%M:%SZ") +
          "\"}]}}");
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("general-").size() == 1; },
                        seconds(45)))
      << propscaler->Report();
  ASSERT_TRUE(WaitForMetrics(
      port,
      {R"(karpenter_nodes_terminated_total{nodepool="general")",
       R"(karpenter_voluntary_disruption_decisions_total{decision="delete",)"
       R"(reason="empty",consolidation_type="empty"} 1)",
       R"(karpenter_cluster_state_node_count 1)",
       "karpenter_pods_startup_duration_seconds_count 1"},
      seconds(15)))
      << propscaler->Report();
  const std::string job = R"(job="propscaler")";
  const std::string all = R"(cluster="",job=~"propscaler")";
  const std::string pools = all + R"(,nodepool=~".*")";
  const std::string node = pools +
                           R"(,region=~".*",zone=~".*",arch=~".*",os=~".*",)"
                           R"(instance_type=~".*",capacity_type=~".*")";
  const std::string table =
      "node_name, nodepool, instance_type, instance_memory, instance_cpu, "
      "instance_network_bandwidth, region, zone, os, capacity_type, arch";
  const std::string price =
      "max by (instance_type, capacity_type, zone) "
      "(karpenter_cloudprovider_instance_type_offering_price_estimate{" +
      all + R"(,zone=~".*",instance_type=~".*",capacity_type=~".*"}))";
  std::vector<std::string> exprs = {
      // Overview: the cluster's and the NodePool's usage against limits.
      "sum(karpenter_nodepools_usage{" + pools +
          R"(,resource_type="cpu"}) == 3.9)",
      "sum(karpenter_nodes_total_pod_requests{" + node +
          R"(,resource_type="cpu"}) + sum(karpenter_nodes_total_daemon_)"
          "requests{" +
          node + R"(,resource_type="cpu"}) == 3)",
      "sum(karpenter_nodepools_usage{" + pools +
          R"(,resource_type="memory"}) > 0)",
      // Pod limits (these pods set none).
      "sum(karpenter_nodes_total_pod_limits{" + node +
          R"(,resource_type="cpu"}) + sum(karpenter_nodes_total_daemon_)"
          "limits{" +
          node + R"(,resource_type="cpu"}) == 0)",
      "count(count(karpenter_nodepools_limit{" + all + "}) by (nodepool)) == 1",
      "count(count(karpenter_nodes_allocatable{" + node +
          "}) by (node_name)) == 1",
      "sum(karpenter_nodepools_limit{" + pools +
          R"(,resource_type="cpu"}) == 100)",
      "sum(karpenter_nodepools_usage{" + pools +
          "}) by (nodepool, resource_type) / sum(karpenter_nodepools_limit{" +
          pools + "}) by (nodepool, resource_type) * 100 > 3",
      "count by (nodepool) (count by (node_name, nodepool) "
      "(karpenter_nodes_allocatable{" +
          node + "})) == 1",
      "sum(karpenter_nodepools_usage{" + pools +
          R"(,resource_type="nodes"}) by (job, namespace, nodepool) == 1)",
      "sum(karpenter_nodepools_usage{" + pools +
          R"(,resource_type="pods"}) by (job, namespace, nodepool) > 0)",
      "sum(karpenter_nodepools_usage{" + pools +
          R"(,resource_type="ephemeral_storage"}) by (job, namespace, )"
          "nodepool) >= 0",
      // The nodes table: 3 of 3.9 cpu requested.
      "((sum(karpenter_nodes_total_pod_requests{" + node +
          R"(,resource_type="cpu"}) by ()" + table +
          ") + sum(karpenter_nodes_total_daemon_requests{" + node +
          R"(,resource_type="cpu"}) by ()" + table +
          ")) / sum(karpenter_nodes_allocatable{" + node +
          R"(,resource_type="cpu"}) by ()" + table + ")) * 100 > 70",
      // Activity ($__rate_interval as 1m).
      "round(sum(increase(karpenter_nodes_created_total{" + pools +
          "}[1m])) by (nodepool))",
      "round(sum(increase(karpenter_nodes_terminated_total{" + pools +
          "}[1m])) by (nodepool))",
      "round(sum(increase(karpenter_voluntary_disruption_decisions_total{" +
          all + "}[1m])) by (decision, reason))",
      "round(sum(karpenter_voluntary_disruption_eligible_nodes{" + all +
          "}) by (reason))",
      // Pods: web-0, Running and Ready on the NodePool's node.
      "round(sum(karpenter_pods_state{" + all + "}) by (phase)) == 1",
      "sum(karpenter_pods_state{" + all +
          R"(,phase="Running",ready="true",scheduled="true",)"
          R"(managed="true"}) == 1)",
      "sum(karpenter_pods_state{" + pools + R"(}) by (nodepool) == 1)",
      "sum(karpenter_pods_state{" + pools + R"(}) by (instance_type) == 1)",
      "sum(karpenter_pods_state{" + pools + R"(}) by (capacity_type) == 1)",
      // The disruption methods' evaluation, at each quantile the mixin
      // draws.
      "histogram_quantile(0.50, sum(rate(karpenter_voluntary_disruption_"
      "decision_evaluation_duration_seconds_bucket{" +
          all + "}[1m])) by (job, le))",
      "histogram_quantile(0.99, sum(rate(karpenter_voluntary_disruption_"
      "decision_evaluation_duration_seconds_bucket{" +
          all + "}[1m])) by (job, le))",
      // Performance.
      "histogram_quantile(0.50, sum(rate(karpenter_scheduler_scheduling_"
      "duration_seconds_bucket{" +
          all + "}[1m]) > 0) by (job, le))",
      "histogram_quantile(0.99, sum(rate(karpenter_scheduler_scheduling_"
      "duration_seconds_bucket{" +
          all + "}[1m]) > 0) by (job, le))",
      "sum(karpenter_cluster_state_synced{" + all + "}) by (job) == 1",
      "sum(karpenter_cluster_state_node_count{" + all + "}) by (job) == 1",
      "sum(karpenter_scheduler_queue_depth{" + all + "}) by (job) == 0",
      // Pod startup, at the quantiles Karpenter reports (the mixin also
      // asks for 0.95, which Karpenter's summary does not have).
      "max(karpenter_pods_startup_duration_seconds{" + all +
          R"(,quantile="0.5"}) >= 0)",
      "max(karpenter_pods_startup_duration_seconds{" + all +
          R"(,quantile="0.99"}) >= 0)",
      "max(karpenter_nodes_termination_duration_seconds{" + all +
          R"(,quantile="0.5"}) >= 0)",
      // Costs: the node priced by its offering, for 730 hours.
      "sum by (instance_type, capacity_type) (count by (region, zone, "
      "instance_type, capacity_type) (max by (node_name, region, zone, "
      "instance_type, capacity_type) (karpenter_nodes_allocatable{" +
          node + R"(,resource_type="cpu"}))) == 1)",
      "(sum by (nodepool) ((count by (nodepool, region, zone, instance_type, "
      "capacity_type) (max by (node_name, nodepool, region, zone, "
      "instance_type, capacity_type) (karpenter_nodes_allocatable{" +
          node +
          R"(,resource_type="cpu"}))) * on (instance_type, capacity_type, )"
          "zone) group_left() (" +
          price + "))) * 730 > 0",
      // KarpenterNodepoolNearCapacity, ...ClusterStateNotSynced and
      // ...SchedulerQueueDepthHigh.
      "sum(karpenter_nodepools_usage{" + job +
          "}) by (cluster, namespace, job, nodepool, resource_type) / "
          "sum(karpenter_nodepools_limit{" +
          job +
          "}) by (cluster, namespace, job, nodepool, resource_type) * "
          "100 > 3",
      "sum(karpenter_cluster_state_synced{" + job +
          "}) by (cluster, namespace, job) == 1",
      "sum(karpenter_scheduler_queue_depth{" + job +
          "}) by (cluster, namespace, job) >= 0",
      // The same decision under propscaler's name, which the shipped
      // dashboard reads.
      "propscaler_disruption_decisions_total{" + job +
          R"(,method="emptiness",action="delete"} == 1)"};
  // Each node label the overview counts nodes by.
  for (const char* label :
       {"instance_type", "capacity_type", "region", "zone", "arch", "os"}) {
    exprs.push_back("count by (" + std::string(label) +
                    ") (count by (node_name, " + label +
                    ") (karpenter_nodes_allocatable{" + node + "})) == 1");
  }
  EXPECT_TRUE(PrometheusScrapes(port, exprs)) << propscaler->Report();
}

// The /status page in a browser draws the run: two pending pods, the
// group's target going to the one node they need, and the scale-up marked.
TEST_F(NodeScaleTest, StatusPageDrawsPendingPodsAndTheScaleUpInABrowser) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  for (int i = 0; i < 2; ++i) CreatePod("web-" + std::to_string(i), "1500m");
  const int port = FreePort();
  auto propscaler = Start(
      {"--scale-down-enabled=false", "--healthz-port=" + std::to_string(port)});
  const std::string url =
      "http://127.0.0.1:" + std::to_string(port) + "/status";
  std::string dom;
  EXPECT_TRUE(WaitUntil(
      [&] {
        dom = ChromiumDom(dir_, url);
        return HasPictureLine(dom, "small target", "0 1");
      },
      std::chrono::seconds(30)))
      << dom << propscaler->Report();
  EXPECT_TRUE(HasPictureLine(dom, "pending pods", "2( [0-9]+)*")) << dom;
  EXPECT_TRUE(HasPictureLine(dom, "target", "0 1")) << dom;
  EXPECT_NE(dom.find("data-mark=\"scale-up: {small 0-&gt;1"), std::string::npos)
      << dom;
}

TEST_F(NodeScaleTest, PodsThatFitNoGroupGetNotTriggerScaleUp) {
  PutGroups({GroupJson("small", 0, 10, "2", "8Gi")});
  CreatePod("huge", "16");
  auto propscaler = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil(
      [&] { return CountEvents("default", "NotTriggerScaleUp") == 1; },
      seconds(10)))
      << propscaler->Report();
  EXPECT_TRUE(NodesWithPrefix("small-").empty());
}

TEST_F(NodeScaleTest, UnneededNodesAreTaintedThenDeleted) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  CreateNode("small-a", "small");
  CreateNode("small-b", "small");
  CreatePod("web-0", "3", "small-b");
  auto propscaler = Start(
      {"--scale-down-unneeded-time=2s", "--scale-down-delay-after-add=0s"});
  ASSERT_TRUE(WaitUntil(
      [&] {
        return NodeHasTaint("small-a", "DeletionCandidateOfClusterAutoscaler");
      },
      seconds(10)))
      << propscaler->Report();
  EXPECT_FALSE(NodeHasTaint("small-b", "DeletionCandidateOfClusterAutoscaler"));
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("small-a").empty(); },
                        seconds(10)))
      << propscaler->Report();
  EXPECT_EQ(NodesWithPrefix("small-b").size(), 1u);
  // The pod goes: its node follows.
  DeletePod("web-0");
  ASSERT_TRUE(
      WaitUntil([&] { return NodesWithPrefix("small-").empty(); }, seconds(15)))
      << propscaler->Report();
  EXPECT_GE(CountEvents("default", "ScaleDown"), 2);
}

TEST_F(NodeScaleTest, PdbRefusedEvictionKeepsTheNodeAndClearsTheTaint) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  CreateNode("static-1", "", "4");
  CreateNode("small-a", "small");
  CreatePod("web-0", "500m", "small-a");
  sim::FaultRule pdb;
  pdb.method = "POST";
  pdb.path_prefix = "/api/v1/namespaces/default/pods/web-0/eviction";
  pdb.code = 429;
  pdb.count = -1;
  server_.AddFault(pdb);
  auto propscaler =
      Start({"--scale-down-unneeded-time=1s", "--scale-down-delay-after-add=0s",
             "--scale-down-delay-after-failure=30s"});
  ASSERT_TRUE(
      WaitUntil([&] { return CountEvents("default", "ScaleDownFailed") >= 1; },
                seconds(15)))
      << propscaler->Report();
  ASSERT_TRUE(WaitUntil(
      [&] {
        return !NodeHasTaint("small-a", "ToBeDeletedByClusterAutoscaler");
      },
      seconds(5)));
  EXPECT_EQ(NodesWithPrefix("small-a").size(), 1u);
  EXPECT_TRUE(server_.GetObject("/api/v1/namespaces/default/pods/web-0"));
  std::optional<std::string> node = server_.GetObject("/api/v1/nodes/small-a");
  EXPECT_EQ(node->find("\"unschedulable\":true"), std::string::npos) << *node;
}

// A node with one evicted pod that lingers (it has a finalizer, as a pod
// does while it terminates).
class NodeScaleDrainTest : public NodeScaleTest {
 protected:
  void SetUp() override {
    NodeScaleTest::SetUp();
    PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
    CreateNode("static-1", "", "4");
    CreateNode("small-a", "small");
    CreatePod("web-0", "500m", "small-a");
    AddFinalizer("web-0");
    PatchPod("web-0", R"({"spec":{"terminationGracePeriodSeconds":3600}})");
  }
  std::string Pod() const {
    return server_.GetObject("/api/v1/namespaces/default/pods/web-0")
        .value_or("");
  }
  bool Evicted() const {
    return Pod().find("deletionTimestamp") != std::string::npos;
  }
  std::unique_ptr<Process> StartScaleDown(const std::string& grace) {
    return Start({"--scale-down-unneeded-time=1s",
                  "--scale-down-delay-after-add=0s",
                  "--scale-down-delay-after-failure=30s",
                  "--max-graceful-termination-sec=" + grace});
  }
};

TEST_F(NodeScaleDrainTest, NodeIsDeletedOnlyAfterItsEvictedPodIsGone) {
  auto propscaler = StartScaleDown("600");
  ASSERT_TRUE(WaitUntil([&] { return Evicted(); }, seconds(15)))
      << propscaler->Report();
  // The pod's own 3600 s, capped by --max-graceful-termination-sec.
  EXPECT_NE(Pod().find("\"deletionGracePeriodSeconds\":600"), std::string::npos)
      << Pod();
  // That the node waits for as long as the pod is there is shown in
  // virtual time (NodeScaleScenarioTest.
  // DrainedNodeIsDeletedOnlyAfterItsEvictedPodIsGone).
  EXPECT_EQ(CountEvents("default", "ScaleDownFailed"), 0);
  EXPECT_EQ(NodesWithPrefix("small-a").size(), 1u);
  DeletePod("web-0");
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("small-a").empty(); },
                        seconds(10)))
      << propscaler->Report();
}

TEST_F(NodeScaleDrainTest, PodOutlivingTheGracePeriodFailsTheRemoval) {
  auto propscaler = StartScaleDown("1");
  ASSERT_TRUE(
      WaitUntil([&] { return CountEvents("default", "ScaleDownFailed") >= 1; },
                seconds(15)))
      << propscaler->Report();
  EXPECT_TRUE(Evicted());
  ASSERT_TRUE(WaitUntil(
      [&] {
        return !NodeHasTaint("small-a", "ToBeDeletedByClusterAutoscaler");
      },
      seconds(5)))
      << propscaler->Report();
  EXPECT_EQ(NodesWithPrefix("small-a").size(), 1u);
}

// Cluster Autoscaler's --max-drain-parallelism: two busy unneeded nodes
// drained in the same pass (their pods linger, held by a finalizer, so the
// drains overlap). With the default of 1 the second waits for the first
// (RemovalChoiceTest, in virtual time).
TEST_F(NodeScaleTest, DrainParallelismDrainsTwoBusyNodesAtOnce) {
  PutGroups({GroupJson("small", 0, 10, "4", "8Gi")});
  // First by name: the simulation moves both pods there, so neither small
  // node receives the other's pod (which would keep it this pass).
  CreateNode("big-0", "", "8");
  for (const char* node : {"small-a", "small-b"}) {
    CreateNode(node, "small");
    const std::string pod = std::string("web-") + node;
    CreatePod(pod, "500m", node);
    AddFinalizer(pod);
  }
  auto propscaler =
      Start({"--scale-down-unneeded-time=1s", "--scale-down-delay-after-add=0s",
             "--max-drain-parallelism=2"});
  auto evicted = [&](const std::string& pod) {
    return server_.GetObject("/api/v1/namespaces/default/pods/" + pod)
               .value_or("")
               .find("deletionTimestamp") != std::string::npos;
  };
  ASSERT_TRUE(WaitUntil(
      [&] { return evicted("web-small-a") && evicted("web-small-b"); },
      seconds(15)))
      << propscaler->Report();
  EXPECT_TRUE(NodeHasTaint("small-a", "ToBeDeletedByClusterAutoscaler"));
  EXPECT_TRUE(NodeHasTaint("small-b", "ToBeDeletedByClusterAutoscaler"));
  for (const char* pod : {"web-small-a", "web-small-b"}) DeletePod(pod);
  ASSERT_TRUE(
      WaitUntil([&] { return NodesWithPrefix("small-").empty(); }, seconds(10)))
      << propscaler->Report();
  EXPECT_EQ(NodesWithPrefix("big-").size(), 1u);
}

TEST_F(NodeScaleTest, GroupThatNeverGetsReadyIsBackedOffForTheNext) {
  // least-waste prefers the 2-core group; its nodes never become Ready.
  PutGroups({GroupJson("bad", 0, 10, "2", "4Gi"),
             GroupJson("good", 0, 10, "8", "32Gi")});
  CreatePod("web-0", "1");
  auto propscaler =
      Start({"--kwok-not-ready-node-groups=bad", "--max-node-provision-time=2s",
             "--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("bad-").size() == 1; },
                        seconds(10)))
      << propscaler->Report();
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("good-").size() == 1; },
                        seconds(15)))
      << propscaler->Report();
  EXPECT_TRUE(
      WaitUntil([&] { return NodesWithPrefix("bad-").empty(); }, seconds(5)));
  // The status ConfigMap is written at the end of the loop's iteration, in
  // Cluster Autoscaler's YAML: the group in Backoff with CA's timeout code.
  EXPECT_TRUE(WaitUntil(
      [&] {
        const YAML::Node bad = CaGroup(server_, "bad");
        return bad.IsMap() &&
               bad["scaleUp"]["status"].as<std::string>() == "Backoff" &&
               bad["scaleUp"]["backoffInfo"]["errorCode"].as<std::string>() ==
                   "timeout";
      },
      seconds(5)))
      << server_.ConfigMapData(kNamespace, "propscaler-status")
             .value_or(std::map<std::string, std::string>())["status"];
}

// Cluster Autoscaler's startup time: a node that registered but stays
// NotReady is Unready --max-node-startup-time after its creation and no
// longer counts as coming, so the pending pod gets a second node long
// before --max-node-provision-time (it got none in 13 s when the request's
// provision time kept the node NotStarted).
TEST_F(NodeScaleTest, ANodeNotReadyPastItsStartupTimeGetsThePodASecondNode) {
  PutGroups({GroupJson("pool", 0, 10, "4", "8Gi")});
  CreatePod("web-0", "1");
  auto propscaler =
      Start({"--kwok-not-ready-node-groups=pool", "--max-node-startup-time=6s",
             "--max-node-provision-time=45s", "--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("pool-").size() == 1; },
                        seconds(10)))
      << propscaler->Report();
  EXPECT_TRUE(WaitUntil([&] { return NodesWithPrefix("pool-").size() >= 2; },
                        seconds(13)))
      << propscaler->Report();
  EXPECT_EQ(CountEvents(kNamespace, "ScaleUpTimedOut"), 0);
}

// kwok instances that never register: after --max-node-provision-time the
// group is backed off, the instance given up for good (the target stays
// at 0, the instance is never created) with Cluster Autoscaler's Events on
// the status ConfigMap, and the pod gets a node of the next group.
TEST_F(NodeScaleTest, AnInstanceThatNeverRegistersIsGivenUpWithEvents) {
  PutGroups({GroupJson("ghost", 0, 10, "2", "4Gi"),
             GroupJson("good", 0, 10, "8", "32Gi")});
  CreatePod("web-0", "1");
  auto propscaler =
      Start({"--kwok-unregistered-node-groups=ghost",
             "--max-node-provision-time=2s", "--scale-down-enabled=false"});
  auto ghost_target = [&](int target) {
    const YAML::Node ghost = CaGroup(server_, "ghost");
    return ghost.IsMap() &&
           ghost["health"]["cloudProviderTarget"].as<int>() == target;
  };
  ASSERT_TRUE(WaitUntil([&] { return ghost_target(1); }, seconds(10)))
      << propscaler->Report();
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("good-").size() == 1; },
                        seconds(15)))
      << propscaler->Report();
  EXPECT_TRUE(WaitUntil(
      [&] {
        return CountEvents(kNamespace, "ScaleUpTimedOut") == 1 &&
               CountEvents(kNamespace, "DeleteUnregistered") == 1;
      },
      seconds(5)));
  bool named = false;
  for (const std::string& event : server_.Events(kNamespace)) {
    named |= event.find(
                 "Nodes added to group ghost failed to register "
                 "within 2s") != std::string::npos;
  }
  EXPECT_TRUE(named);
  EXPECT_TRUE(WaitUntil([&] { return ghost_target(0); }, seconds(5)));
  EXPECT_TRUE(NodesWithPrefix("ghost-").empty());
}

// A declared template's startup taint is left out of the plan: a pod that
// does not tolerate it gets a scale-up, and the node is made with it.
TEST_F(NodeScaleTest, AStartupTaintOnTheTemplateDoesNotRefuseTheScaleUp) {
  std::string group = GroupJson("pool", 0, 10, "4", "8Gi");
  const std::string no_taints = R"("taints":[])";
  group.replace(group.find(no_taints), no_taints.size(),
                R"("taints":[{"key":"startup-taint.cluster-autoscaler.)"
                R"(kubernetes.io/cni","effect":"NoSchedule"}])");
  PutGroups({group});
  CreatePod("web-0", "1");
  auto propscaler = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("pool-").size() == 1; },
                        seconds(10)))
      << propscaler->Report();
  EXPECT_TRUE(
      NodeHasTaint(NodesWithPrefix("pool-")[0],
                   "startup-taint.cluster-autoscaler.kubernetes.io/cni"));
  EXPECT_TRUE(
      WaitUntil([&] { return CountEvents("default", "TriggeredScaleUp") == 1; },
                seconds(5)));
  EXPECT_EQ(CountEvents("default", "NotTriggerScaleUp"), 0);
}

TEST_F(NodeScaleTest, PriorityFromNodeGroupsPrefersSpotThenFallsBack) {
  // least-waste alone would pick the 2-core on-demand group; priority 50
  // sends the pods to spot, whose nodes never become Ready, so after the
  // provisioning deadline spot is backed off and on-demand is used.
  ASSERT_TRUE(
      server_
          .PutConfigMap(
              kNamespace, kGroupsConfigMap,
              {{"node-groups.json",
                "{\"nodeGroups\":[" + GroupJson("ondemand", 0, 10, "2", "4Gi") +
                    "," + GroupJson("spot", 0, 10, "8", "32Gi") +
                    "],\"priorities\":{\"50\":[\"^spot$\"],"
                    "\"10\":[\"^ondemand$\"]}}"}})
          .ok());
  CreatePod("web-0", "1");
  auto propscaler = Start(
      {"--expander=priority,least-waste", "--kwok-not-ready-node-groups=spot",
       "--max-node-provision-time=2s", "--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("spot-").size() == 1; },
                        seconds(10)))
      << propscaler->Report();
  EXPECT_TRUE(NodesWithPrefix("ondemand-").empty());
  ASSERT_TRUE(WaitUntil(
      [&] { return NodesWithPrefix("ondemand-").size() == 1; }, seconds(15)))
      << propscaler->Report();
}

TEST_F(NodeScaleTest, PriorityFromClusterAutoscalersConfigMap) {
  PutGroups({GroupJson("cheap", 0, 10, "2", "4Gi"),
             GroupJson("preferred", 0, 10, "8", "32Gi")});
  ASSERT_TRUE(server_
                  .PutConfigMap(
                      kNamespace, "cluster-autoscaler-priority-expander",
                      {{"priorities", "10:\n  - ^cheap$\n50:\n  - ^pref.*\n"}})
                  .ok());
  CreatePod("web-0", "1");
  auto propscaler =
      Start({"--expander=priority,least-waste", "--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil(
      [&] { return NodesWithPrefix("preferred-").size() == 1; }, seconds(10)))
      << propscaler->Report();
  EXPECT_TRUE(NodesWithPrefix("cheap-").empty());
}

TEST_F(NodeScaleTest, PriorityWithoutConfigLetsEveryGroupPassAndSaysWhy) {
  PutGroups({GroupJson("only", 0, 10, "4", "8Gi")});
  CreatePod("web-0", "1");
  auto propscaler =
      Start({"--expander=priority", "--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("only-").size() == 1; },
                        seconds(10)))
      << propscaler->Report();
  const std::string output = propscaler->Output();
  const size_t note = output.find("priority expander: no priorities");
  ASSERT_NE(note, std::string::npos) << output;
  EXPECT_EQ(output.find("priority expander: no priorities", note + 1),
            std::string::npos)
      << "logged more than once:\n"
      << output;
}

}  // namespace
}  // namespace propscaler::e2e
