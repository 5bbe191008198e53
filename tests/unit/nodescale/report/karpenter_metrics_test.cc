#include "nodescale/report/karpenter_metrics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace propscaler::nodescale {
namespace {

// The series of `family` whose labels include every one of `labels`, as
// `name="value"`; their values.
std::vector<double> Matching(const Metrics& m, const std::string& family,
                             const std::vector<std::string>& labels) {
  std::vector<double> out;
  const auto families = m.Families();
  auto found = families.find(family);
  if (found == families.end()) return out;
  for (const auto& [key, series] : found->second.series) {
    bool all = true;
    for (const std::string& label : labels) {
      all = all && key.find(label) != std::string::npos;
    }
    if (all) out.push_back(series.value);
  }
  return out;
}

LiveNode PoolNode(const std::string& name, const std::string& pool) {
  LiveNode node;
  node.state.name = name;
  node.state.allocatable = {.cpu_millis = 4000,
                            .memory_bytes = 8LL << 30,
                            .ephemeral_storage_bytes = 0,
                            .pods = 110};
  if (!pool.empty()) node.state.labels["karpenter.sh/nodepool"] = pool;
  node.state.labels["topology.kubernetes.io/zone"] = "test-zone-a";
  node.state.labels["node.kubernetes.io/instance-type"] = "c-4x-amd64-linux";
  node.state.labels["karpenter.sh/capacity-type"] = "on-demand";
  node.state.labels["kubernetes.io/arch"] = "amd64";
  node.state.labels["kubernetes.io/os"] = "linux";
  return node;
}

LivePod BoundPod(const std::string& name, const std::string& node,
                 int64_t cpu_millis, bool daemon = false) {
  LivePod pod;
  pod.state.namespace_ = "default";
  pod.state.name = name;
  pod.state.node_name = node;
  pod.state.requests = {
      .cpu_millis = cpu_millis, .memory_bytes = 1LL << 30, .pods = 1};
  if (daemon) pod.state.owner_kind = "DaemonSet";
  return pod;
}

NodePoolCatalogue OnePool() {
  NodePoolCatalogue catalogue;
  NodePoolSpec pool;
  pool.name = "general";
  pool.limits = {{"cpu", 100'000}, {"memory", 400LL << 30}};
  catalogue.pools = {pool};
  InstanceType type;
  type.name = "c-4x-amd64-linux";
  type.offerings = {{{{"topology.kubernetes.io/zone", "test-zone-a"},
                      {"karpenter.sh/capacity-type", "on-demand"}},
                     0.17},
                    {{{"topology.kubernetes.io/zone", "test-zone-a"},
                      {"karpenter.sh/capacity-type", "spot"}},
                     0.05}};
  catalogue.instance_types = {type};
  return catalogue;
}

TEST(KarpenterMetricsTest, NodesAndNodePoolsAsKarpenterLabelsThem) {
  Metrics m;
  DeclareKarpenterMetrics(&m);
  SharedNodes nodes{PoolNode("general-abcde", "general"),
                    PoolNode("static-1", "")};
  LivePod web = BoundPod("web-0", "general-abcde", 1500);
  web.limit_cpu_millis = 2000;
  LivePod agent = BoundPod("agent-x", "general-abcde", 100, true);
  agent.limit_cpu_millis = 200;
  agent.limit_memory_bytes = 1LL << 28;
  SharedPods pods{web, agent, BoundPod("pending", "", 2000)};
  const NodePoolCatalogue catalogue = OnePool();
  SetKarpenterGauges({&nodes, &pods, &catalogue, 1}, &m);

  const std::vector<std::string> node = {R"(nodepool="general")",
                                         R"(zone="test-zone-a")",
                                         R"(instance_type="c-4x-amd64-linux")",
                                         R"(capacity_type="on-demand")",
                                         R"(arch="amd64")",
                                         R"(os="linux")",
                                         R"(node_name="general-abcde")",
                                         R"(managed="true")"};
  auto with = [&](const std::string& resource) {
    std::vector<std::string> labels = node;
    labels.push_back("resource_type=\"" + resource + "\"");
    return labels;
  };
  EXPECT_EQ(Matching(m, "karpenter_nodes_allocatable", with("cpu")),
            std::vector<double>{4});
  EXPECT_EQ(Matching(m, "karpenter_nodes_allocatable", with("pods")),
            std::vector<double>{110});
  // Every pod's requests, the DaemonSet's included; the daemon's alone.
  EXPECT_EQ(Matching(m, "karpenter_nodes_total_pod_requests", with("cpu")),
            std::vector<double>{1.6});
  EXPECT_EQ(Matching(m, "karpenter_nodes_total_pod_requests", with("memory")),
            std::vector<double>{2.0 * (1LL << 30)});
  EXPECT_TRUE(
      Matching(m, "karpenter_nodes_total_pod_requests", with("pods")).empty())
      << "a pod's slot is not a request";
  EXPECT_EQ(Matching(m, "karpenter_nodes_total_daemon_requests", with("cpu")),
            std::vector<double>{0.1});
  // Limits as requests, cpu and memory.
  EXPECT_EQ(Matching(m, "karpenter_nodes_total_pod_limits", with("cpu")),
            std::vector<double>{2.2});
  EXPECT_EQ(Matching(m, "karpenter_nodes_total_daemon_limits", with("cpu")),
            std::vector<double>{0.2});
  EXPECT_EQ(Matching(m, "karpenter_nodes_total_daemon_limits", with("memory")),
            std::vector<double>{double(1LL << 28)});
  // A node without a NodePool is there, unmanaged, with nothing on it.
  EXPECT_EQ(Matching(m, "karpenter_nodes_total_pod_requests",
                     {R"(node_name="static-1")", R"(managed="false")",
                      R"(nodepool="")", R"(resource_type="cpu")"}),
            std::vector<double>{0});

  EXPECT_EQ(Matching(m, "karpenter_nodepools_usage",
                     {R"(nodepool="general")", R"(resource_type="cpu")"}),
            std::vector<double>{4});
  EXPECT_EQ(Matching(m, "karpenter_nodepools_usage",
                     {R"(nodepool="general")", R"(resource_type="nodes")"}),
            std::vector<double>{1});
  EXPECT_EQ(Matching(m, "karpenter_nodepools_usage",
                     {R"(resource_type="ephemeral_storage")"}),
            std::vector<double>{0})
      << "Karpenter's status.resources always has it";
  EXPECT_EQ(Matching(m, "karpenter_nodepools_limit",
                     {R"(nodepool="general")", R"(resource_type="cpu")"}),
            std::vector<double>{100});
  EXPECT_EQ(
      Matching(m, "karpenter_nodepools_limit", {R"(resource_type="memory")"}),
      std::vector<double>{400.0 * (1LL << 30)});
  EXPECT_EQ(
      Matching(m,
               "karpenter_cloudprovider_instance_type_offering_price_estimate",
               {R"(instance_type="c-4x-amd64-linux")",
                R"(capacity_type="spot")", R"(zone="test-zone-a")"}),
      std::vector<double>{0.05});
  EXPECT_EQ(m.Value("karpenter_cluster_state_synced"), 1);
  EXPECT_EQ(m.Value("karpenter_cluster_state_node_count"), 2);
  EXPECT_EQ(m.Value("karpenter_scheduler_queue_depth",
                    {{"controller", "provisioner"}, {"scheduling_id", ""}}),
            1);
}

// pods_state counts pods by the labels Karpenter's has besides the pod's
// own: two Running, Ready pods on nodes alike in labels are one series of
// 2; a Pending pod no node has, and a finished one, each their own.
TEST(KarpenterMetricsTest, PodsStateCountsPodsByNodeAndPhase) {
  Metrics m;
  DeclareKarpenterMetrics(&m);
  SharedNodes nodes{PoolNode("general-a", "general"),
                    PoolNode("general-b", "general"), PoolNode("static-1", "")};
  LivePod a = BoundPod("web-0", "general-a", 500);
  LivePod b = BoundPod("web-1", "general-b", 500);
  for (LivePod* pod : {&a, &b}) {
    pod->phase = kube::PodPhase::kRunning;
    pod->ready_since = TimePoint(std::chrono::seconds(100));
  }
  LivePod pending = BoundPod("web-2", "", 500);
  pending.phase = kube::PodPhase::kPending;
  LivePod done = BoundPod("job-0", "static-1", 100);
  done.phase = kube::PodPhase::kSucceeded;
  done.state.terminated = true;
  SharedPods pods{a, b, pending, done};
  const NodePoolCatalogue catalogue = OnePool();
  SetKarpenterGauges({&nodes, &pods, &catalogue, 1}, &m);

  EXPECT_EQ(
      Matching(m, "karpenter_pods_state",
               {R"(scheduled="true")", R"(nodepool="general")",
                R"(zone="test-zone-a")", R"(arch="amd64")",
                R"(capacity_type="on-demand")",
                R"(instance_type="c-4x-amd64-linux")", R"(phase="Running")",
                R"(ready="true")", R"(managed="true")"}),
      std::vector<double>{2});
  EXPECT_EQ(Matching(m, "karpenter_pods_state",
                     {R"(scheduled="false")", R"(nodepool="")",
                      R"(instance_type="")", R"(phase="Pending")",
                      R"(ready="false")", R"(managed="false")"}),
            std::vector<double>{1});
  EXPECT_EQ(
      Matching(m, "karpenter_pods_state",
               {R"(scheduled="true")", R"(managed="false")",
                R"(instance_type="c-4x-amd64-linux")", R"(phase="Succeeded")"}),
      std::vector<double>{1});
  EXPECT_EQ(m.Families().at("karpenter_pods_state").series.size(), 3u);
  EXPECT_TRUE(Matching(m, "karpenter_pods_state", {"name="}).empty())
      << "no series per pod";

  // The pods gone, their series go.
  SharedPods none;
  SetKarpenterGauges({&nodes, &none, &catalogue, 0}, &m);
  EXPECT_TRUE(m.Families().at("karpenter_pods_state").series.empty());
}

// The scheduling simulation and each method's evaluation in Karpenter's
// buckets and under Karpenter's labels.
TEST(KarpenterMetricsTest, DecisionDurationsAreHistograms) {
  Metrics m;
  DeclareKarpenterCounters(&m);
  ObserveKarpenterScheduling(std::chrono::milliseconds(30), &m);
  ObserveKarpenterEvaluation(DisruptionMethod::kMultiNode,
                             std::chrono::milliseconds(7), &m);
  ObserveKarpenterEvaluation(DisruptionMethod::kEmptiness,
                             std::chrono::seconds(2), &m);
  const auto families = m.Families();
  const Metrics::Family& scheduling =
      families.at("karpenter_scheduler_scheduling_duration_seconds");
  EXPECT_EQ(scheduling.type, Metrics::Type::kHistogram);
  ASSERT_EQ(scheduling.series.size(), 1u);
  EXPECT_EQ(scheduling.series.begin()->first, R"({controller="provisioner"})");
  EXPECT_DOUBLE_EQ(scheduling.series.begin()->second.value, 0.03);
  const Metrics::Family& evaluation = families.at(
      "karpenter_voluntary_disruption_decision_evaluation_duration_seconds");
  EXPECT_EQ(evaluation.type, Metrics::Type::kHistogram);
  EXPECT_EQ(evaluation.series.size(), 2u);
  EXPECT_TRUE(evaluation.series.contains(
      R"({reason="underutilized",consolidation_type="multi"})"));
  EXPECT_TRUE(evaluation.series.contains(
      R"({reason="empty",consolidation_type="empty"})"));
  // Karpenter's DurationBuckets: 45 bounds from 5 ms to 600 s.
  EXPECT_EQ(evaluation.bounds.size(), 45u);
  EXPECT_EQ(evaluation.bounds.front(), 0.005);
  EXPECT_EQ(evaluation.bounds.back(), 600);
}

TEST(KarpenterMetricsTest, ANodeThatIsGoneLosesItsSeries) {
  Metrics m;
  const NodePoolCatalogue catalogue = OnePool();
  SharedPods pods;
  SharedNodes two{PoolNode("a", "general"), PoolNode("b", "general")};
  SetKarpenterGauges({&two, &pods, &catalogue, 0}, &m);
  ASSERT_EQ(
      Matching(m, "karpenter_nodes_allocatable", {R"(node_name="b")"}).size(),
      4u)
      << "cpu, memory, ephemeral_storage and pods";
  SharedNodes one{PoolNode("a", "general")};
  SetKarpenterGauges({&one, &pods, &catalogue, 0}, &m);
  EXPECT_TRUE(
      Matching(m, "karpenter_nodes_allocatable", {R"(node_name="b")"}).empty());
  EXPECT_EQ(Matching(m, "karpenter_nodepools_usage",
                     {R"(nodepool="general")", R"(resource_type="nodes")"}),
            std::vector<double>{1});
  SetKarpenterUnsynced(&m);
  EXPECT_EQ(m.Value("karpenter_cluster_state_synced"), 0);
}

TEST(KarpenterMetricsTest, CountersCarryKarpentersLabelValues) {
  Metrics m;
  DeclareKarpenterCounters(&m);
  NodeGroup group;
  group.name = "general.c-4x-amd64-linux.test-zone-a.on-demand";
  group.declared_template = NodeTemplate{};
  group.declared_template->labels = PoolNode("x", "general").state.labels;
  CountKarpenterNodesCreated(group, 3, &m);
  EXPECT_EQ(m.Value("karpenter_nodes_created_total",
                    {{"nodepool", "general"}, {"zone", "test-zone-a"}}),
            3);
  CountKarpenterNodeTerminated(PoolNode("x", "general").state,
                               std::chrono::seconds(12), &m);
  CountKarpenterNodeTerminated(PoolNode("y", "").state, std::chrono::seconds(1),
                               &m);
  EXPECT_EQ(m.Value("karpenter_nodes_terminated_total",
                    {{"nodepool", "general"}, {"zone", "test-zone-a"}}),
            1)
      << "a node of no NodePool is not Karpenter's";
  {
    const auto families = m.Families();
    const Metrics::Family& durations =
        families.at("karpenter_nodes_termination_duration_seconds");
    EXPECT_EQ(durations.type, Metrics::Type::kSummary);
    EXPECT_EQ(durations.series.at("{nodepool=\"general\"}").value, 12);
    EXPECT_EQ(durations.series.size(), 1u);
  }
  NodeGroup refused = group;
  CountKarpenterProviderError("kwok", "nodeclaim.lifecycle", "Create", &m);
  EXPECT_EQ(m.Value("karpenter_cloudprovider_errors_total",
                    {{"controller", "nodeclaim.lifecycle"},
                     {"method", "Create"},
                     {"provider", "kwok"},
                     {"error", ""}}),
            1);
  EXPECT_TRUE(IsNodePoolGroup(refused));
  refused.declared_template->labels.erase("karpenter.sh/nodepool");
  EXPECT_FALSE(IsNodePoolGroup(refused));

  DisruptionCommand multi{.method = DisruptionMethod::kMultiNode,
                          .reason = DisruptionReason::kUnderutilized,
                          .nodes = {"a", "b"},
                          .replacement = NewNodes{}};
  DisruptionCommand drift{.method = DisruptionMethod::kDrift,
                          .reason = DisruptionReason::kDrifted,
                          .nodes = {"c"}};
  CountKarpenterDecision(multi, &m);
  CountKarpenterDecision(drift, &m);
  CountKarpenterQueueFailure(multi, &m);
  EXPECT_EQ(m.Value("karpenter_voluntary_disruption_queue_failures_total",
                    {{"decision", "replace"},
                     {"reason", "underutilized"},
                     {"consolidation_type", "multi"}}),
            1);
  EXPECT_EQ(m.Value("karpenter_voluntary_disruption_decisions_total",
                    {{"decision", "replace"},
                     {"reason", "underutilized"},
                     {"consolidation_type", "multi"}}),
            1);
  EXPECT_EQ(m.Value("karpenter_voluntary_disruption_decisions_total",
                    {{"decision", "delete"},
                     {"reason", "drifted"},
                     {"consolidation_type", ""}}),
            1);

  DisruptionPlan plan;
  plan.eligible = {{DisruptionReason::kEmpty, 2}};
  plan.allowances = {{.pool = "general",
                      .reason = DisruptionReason::kUnderutilized,
                      .nodes = 10,
                      .allowed = 1}};
  SetKarpenterDisruptionGauges(plan, &m);
  EXPECT_EQ(m.Value("karpenter_voluntary_disruption_eligible_nodes",
                    {{"reason", "empty"}}),
            2);
  EXPECT_EQ(m.Value("karpenter_nodepools_allowed_disruptions",
                    {{"nodepool", "general"}, {"reason", "Underutilized"}}),
            1);
}

// A pod seen not Ready is observed once, when it is Ready: 40 s from its
// creation to its Ready condition; one Ready at first sight is not.
TEST(KarpenterMetricsTest, APodsStartupIsObservedOnceWhenItTurnsReady) {
  Metrics m;
  DeclareKarpenterMetrics(&m);
  const TimePoint created(std::chrono::seconds(1'764'000'000));
  LivePod starting = BoundPod("web-0", "general-abcde", 100);
  starting.uid = "uid-web-0";
  starting.created = created;
  LivePod old = BoundPod("db-0", "general-abcde", 100);
  old.uid = "uid-db-0";
  old.created = created;
  old.ready_since = created + std::chrono::seconds(5);
  PodStartups startups;
  startups.Observe(SharedPods{starting, old}, &m);
  starting.ready_since = created + std::chrono::seconds(40);
  startups.Observe(SharedPods{starting, old}, &m);
  startups.Observe(SharedPods{starting, old}, &m);
  const auto families = m.Families();
  const Metrics::Family& family =
      families.at("karpenter_pods_startup_duration_seconds");
  EXPECT_EQ(family.type, Metrics::Type::kSummary);
  const Metrics::Series& series = family.series.at("");
  EXPECT_EQ(series.count, 1u);
  EXPECT_EQ(series.value, 40);
  EXPECT_EQ(Metrics::Quantile(series, 0.99), 40);
}

}  // namespace
}  // namespace propscaler::nodescale
