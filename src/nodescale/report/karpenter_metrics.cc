#include "nodescale/report/karpenter_metrics.h"

#include <array>
#include <cctype>
#include <iterator>
#include <map>
#include <string_view>
#include <tuple>

#include "nodescale/domain/instance_types_json.h"
#include "nodescale/plan/claims/pool_catalogue.h"
#include "nodescale/plan/disruption/disruption_budget.h"

namespace propscaler::nodescale {
namespace {

constexpr char kPrefix[] = "karpenter_";

std::string Name(const char* name) { return std::string(kPrefix) + name; }

// Karpenter's well-known node labels under their metric label names.
constexpr std::pair<std::string_view, const char*> kWellKnownLabels[] = {
    {kNodePoolLabel, "nodepool"},
    {kube::kZoneLabel, "zone"},
    {"topology.kubernetes.io/region", "region"},
    {kInstanceTypeLabel, "instance_type"},
    {kArchLabel, "arch"},
    {kOsLabel, "os"},
    {kCapacityTypeLabel, "capacity_type"},
    {"node.kubernetes.io/windows-build", "windows_build"},
};

std::string LabelOf(const Labels& labels, std::string_view key) {
  auto found = labels.find(std::string(key));
  return found == labels.end() ? "" : found->second;
}

MetricLabels NodeLabels(const NodeState& node) {
  MetricLabels out;
  for (const auto& [key, name] : kWellKnownLabels) {
    out.emplace_back(name, LabelOf(node.labels, key));
  }
  out.emplace_back("node_name", node.name);
  out.emplace_back("phase", "");
  out.emplace_back("managed", node.labels.contains(std::string(kNodePoolLabel))
                                  ? "true"
                                  : "false");
  return out;
}

MetricLabels With(MetricLabels labels, const char* key, std::string value) {
  labels.emplace_back(key, std::move(value));
  return labels;
}

// "ephemeral-storage" as "ephemeral_storage", as Karpenter names resources
// (and, in lower case, disruption reasons).
std::string ResourceType(std::string name) {
  for (char& c : name) {
    c = c == '-'
            ? '_'
            : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

// Each amount under its resource type, cpu in cores; `all`: every amount
// even at 0, else cpu and memory always and the rest where non-zero
// (requests name only what pods ask for; "pods" is not one).
std::vector<std::pair<std::string, double>> Amounts(const Resources& r,
                                                    bool all) {
  std::vector<std::pair<std::string, double>> out = {
      {"cpu", static_cast<double>(r.cpu_millis) / 1000},
      {"memory", static_cast<double>(r.memory_bytes)}};
  if (all || r.ephemeral_storage_bytes != 0) {
    out.emplace_back("ephemeral_storage",
                     static_cast<double>(r.ephemeral_storage_bytes));
  }
  if (all) out.emplace_back("pods", static_cast<double>(r.pods));
  for (const auto& [name, amount] : r.extended) {
    if (all || amount != 0) {
      out.emplace_back(ResourceType(name), static_cast<double>(amount));
    }
  }
  return out;
}

struct NodeRequests {
  Resources pods;     // every pod's, DaemonSet pods included
  Resources daemons;  // DaemonSet pods'
  Resources pod_limits;
  Resources daemon_limits;
};

std::map<std::string_view, NodeRequests> RequestsByNode(
    const SharedPods& pods) {
  std::map<std::string_view, NodeRequests> out;
  for (const LivePod& pod : pods) {
    const PodState& state = pod.state;
    if (state.node_name.empty() || state.terminated) continue;
    Resources requests = state.requests;
    requests.pods = 0;  // the slot EffectivePodRequests adds
    const Resources limits{.cpu_millis = pod.limit_cpu_millis,
                           .memory_bytes = pod.limit_memory_bytes};
    NodeRequests& node = out[state.node_name];
    node.pods += requests;
    node.pod_limits += limits;
    if (!IsDaemonSetPod(state)) continue;
    node.daemons += requests;
    node.daemon_limits += limits;
  }
  return out;
}

// Karpenter's reason label: the reason's name in lower case ("empty").
std::string ReasonLabel(DisruptionReason reason) {
  return ResourceType(std::string(DisruptionReasonName(reason)));
}

// Karpenter's ConsolidationType(): "" for drift (and expiry).
std::string_view ConsolidationType(DisruptionMethod method) {
  switch (method) {
    case DisruptionMethod::kEmptiness:
      return "empty";
    case DisruptionMethod::kMultiNode:
      return "multi";
    case DisruptionMethod::kSingleNode:
    case DisruptionMethod::kPriority:
      return "single";
    case DisruptionMethod::kExpiry:
    case DisruptionMethod::kDrift:
      return "";
  }
  return "";
}

using SeriesList = std::vector<std::pair<MetricLabels, double>>;

// The per-node families, in kNodeFamilies' order.
constexpr const char* kNodeFamilies[] = {
    "nodes_allocatable", "nodes_total_pod_requests",
    "nodes_total_daemon_requests", "nodes_total_pod_limits",
    "nodes_total_daemon_limits"};
using NodeFamilies = std::array<SeriesList, std::size(kNodeFamilies)>;

NodeFamilies NodeSeries(const KarpenterClusterState& state) {
  const std::map<std::string_view, NodeRequests> requests =
      RequestsByNode(*state.pods);
  NodeFamilies out;
  for (const LiveNode& live : *state.nodes) {
    const NodeState& node = live.state;
    const MetricLabels labels = NodeLabels(node);
    auto found = requests.find(node.name);
    const NodeRequests on_node =
        found == requests.end() ? NodeRequests() : found->second;
    const std::pair<const Resources*, bool> sources[] = {
        {&node.allocatable, true},
        {&on_node.pods, false},
        {&on_node.daemons, false},
        {&on_node.pod_limits, false},
        {&on_node.daemon_limits, false}};
    for (size_t i = 0; i < out.size(); ++i) {
      for (const auto& [type, amount] :
           Amounts(*sources[i].first, sources[i].second)) {
        out[i].emplace_back(With(labels, "resource_type", type), amount);
      }
    }
  }
  return out;
}

// nodepools_usage and nodepools_limit.
std::array<SeriesList, 2> PoolSeries(const KarpenterClusterState& state) {
  std::map<std::string, Resources, std::less<>> usage;
  std::map<std::string, int64_t, std::less<>> nodes;
  for (const LiveNode& live : *state.nodes) {
    const std::string pool = LabelOf(live.state.labels, kNodePoolLabel);
    if (pool.empty()) continue;
    usage[pool] += live.state.allocatable;
    ++nodes[pool];
  }
  std::array<SeriesList, 2> out;
  for (const NodePoolSpec& pool : state.catalogue->pools) {
    const MetricLabels labels = {{"nodepool", pool.name}};
    for (const auto& [type, amount] : Amounts(usage[pool.name], true)) {
      out[0].emplace_back(With(labels, "resource_type", type), amount);
    }
    out[0].emplace_back(With(labels, "resource_type", "nodes"),
                        static_cast<double>(nodes[pool.name]));
    for (const auto& [resource, amount] : pool.limits) {
      const double value = resource == "cpu"
                               ? static_cast<double>(amount) / 1000
                               : static_cast<double>(amount);
      out[1].emplace_back(With(labels, "resource_type", ResourceType(resource)),
                          value);
    }
  }
  return out;
}

SeriesList OfferingPrices(const NodePoolCatalogue& catalogue) {
  SeriesList out;
  for (const InstanceType& type : catalogue.instance_types) {
    for (const Offering& offering : type.offerings) {
      out.emplace_back(
          MetricLabels{
              {"instance_type", type.name},
              {"capacity_type", LabelOf(offering.labels, kCapacityTypeLabel)},
              {"zone", LabelOf(offering.labels, kube::kZoneLabel)}},
          offering.price);
    }
  }
  return out;
}

// The pod labels of Karpenter's pods_state that are not the pod's own
// (name, namespace, owner and node are left out: one series per kind of
// pod, not per pod).
MetricLabels PodStateLabels(const NodeState* node, bool scheduled,
                            kube::PodPhase phase, bool ready) {
  static const Labels kNoLabels;
  const Labels& labels = node == nullptr ? kNoLabels : node->labels;
  const std::string pool = LabelOf(labels, kNodePoolLabel);
  return {{"scheduled", scheduled ? "true" : "false"},
          {"nodepool", pool},
          {"zone", LabelOf(labels, kube::kZoneLabel)},
          {"arch", LabelOf(labels, kArchLabel)},
          {"capacity_type", LabelOf(labels, kCapacityTypeLabel)},
          {"instance_type", LabelOf(labels, kInstanceTypeLabel)},
          {"phase", std::string(kube::PodPhaseName(phase))},
          {"ready", ready ? "true" : "false"},
          {"managed", pool.empty() ? "false" : "true"}};
}

// pods_state: pods counted by node, phase and readiness first (few keys
// per node), then by their labels (nodes alike in labels merge).
SeriesList PodStateSeries(const KarpenterClusterState& state) {
  std::map<std::string_view, const NodeState*> nodes;
  for (const LiveNode& live : *state.nodes) {
    nodes.emplace(live.state.name, &live.state);
  }
  using Key = std::tuple<std::string_view, kube::PodPhase, bool>;
  std::map<Key, int64_t> counts;
  for (const LivePod& pod : *state.pods) {
    ++counts[{pod.state.node_name, pod.phase, pod.ready_since != TimePoint{}}];
  }
  std::map<MetricLabels, double> series;
  for (const auto& [key, count] : counts) {
    const auto& [node_name, phase, ready] = key;
    auto node = nodes.find(node_name);
    series[PodStateLabels(node == nodes.end() ? nullptr : node->second,
                          !node_name.empty(), phase, ready)] +=
        static_cast<double>(count);
  }
  return SeriesList(series.begin(), series.end());
}

// Karpenter's DurationBuckets (controller-runtime's, and past 60 s for its
// singletons).
std::vector<double> DurationBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3,
          0.35,  0.4,  0.45,  0.5,  0.6, 0.7,  0.8, 0.9,  1.0,
          1.25,  1.5,  1.75,  2.0,  2.5, 3.0,  3.5, 4.0,  4.5,
          5,     6,    7,     8,    9,   10,   15,  20,   25,
          30,    40,   50,    60,   120, 150,  300, 450,  600};
}

// The reason each method disrupts for (Karpenter's method.Reason()).
DisruptionReason MethodReason(DisruptionMethod method) {
  switch (method) {
    case DisruptionMethod::kExpiry:
      return DisruptionReason::kExpired;
    case DisruptionMethod::kEmptiness:
      return DisruptionReason::kEmpty;
    case DisruptionMethod::kDrift:
    case DisruptionMethod::kPriority:  // the move back, under drift's budget
      return DisruptionReason::kDrifted;
    case DisruptionMethod::kMultiNode:
    case DisruptionMethod::kSingleNode:
      return DisruptionReason::kUnderutilized;
  }
  return DisruptionReason::kEmpty;
}

// A decision's labels: decision, reason, consolidation_type.
MetricLabels DecisionLabels(const DisruptionCommand& command) {
  return {
      {"decision", std::string(command.action())},
      {"reason", ReasonLabel(command.reason)},
      {"consolidation_type", std::string(ConsolidationType(command.method))}};
}

}  // namespace

void DeclareKarpenterMetrics(Metrics* m) {
  m->DeclareGauge(Name("pods_state"),
                  "Pod state is the current state of pods, counted by "
                  "whether they are scheduled, their node's nodepool, zone, "
                  "architecture, capacity type and instance type, their "
                  "phase and readiness.");
  m->DeclareGauge(Name("nodes_allocatable"),
                  "Node allocatable are the resources allocatable by nodes.");
  m->DeclareGauge(Name("nodes_total_pod_requests"),
                  "Node total pod requests are the resources requested by "
                  "pods bound to nodes, including the DaemonSet pods.");
  m->DeclareGauge(Name("nodes_total_daemon_requests"),
                  "Node total daemon requests are the resource requested by "
                  "DaemonSet pods bound to nodes.");
  m->DeclareGauge(Name("nodes_total_pod_limits"),
                  "Node total pod limits are the resources specified by pod "
                  "limits, including the DaemonSet pods.");
  m->DeclareGauge(Name("nodes_total_daemon_limits"),
                  "Node total daemon limits are the resources specified by "
                  "DaemonSet pod limits.");
  m->DeclareGauge(Name("nodepools_usage"),
                  "The amount of resources that have been provisioned for a "
                  "nodepool. Labeled by nodepool name and resource type.");
  m->DeclareGauge(Name("nodepools_limit"),
                  "Limits specified on the nodepool that restrict the "
                  "quantity of resources provisioned. Labeled by nodepool "
                  "name and resource type.");
  m->DeclareGauge(Name("cloudprovider_instance_type_offering_price_estimate"),
                  "Instance type offering estimated hourly price used when "
                  "making informed decisions on node cost calculation, based "
                  "on instance type, capacity type, and zone.");
  m->DeclareGauge(Name("cluster_state_synced"),
                  "Returns 1 if cluster state is synced and 0 otherwise.");
  m->DeclareGauge(Name("cluster_state_node_count"),
                  "Current count of nodes in cluster state");
  m->DeclareGauge(Name("scheduler_queue_depth"),
                  "The number of pods currently waiting to be scheduled.");
  m->DeclareSummary(Name("pods_startup_duration_seconds"),
                    "The time from pod creation until the pod is running.",
                    {0, 0.5, 0.9, 0.99, 1});
}

void SetKarpenterGauges(const KarpenterClusterState& state, Metrics* m) {
  const NodeFamilies nodes = NodeSeries(state);
  for (size_t i = 0; i < nodes.size(); ++i) {
    m->SetAll(Name(kNodeFamilies[i]), nodes[i]);
  }
  const std::array<SeriesList, 2> pools = PoolSeries(state);
  m->SetAll(Name("nodepools_usage"), pools[0]);
  m->SetAll(Name("nodepools_limit"), pools[1]);
  m->SetAll(Name("cloudprovider_instance_type_offering_price_estimate"),
            OfferingPrices(*state.catalogue));
  m->SetAll(Name("pods_state"), PodStateSeries(state));
  m->Set(Name("cluster_state_synced"), {}, 1);
  m->Set(Name("cluster_state_node_count"), {},
         static_cast<double>(state.nodes->size()));
  m->Set(Name("scheduler_queue_depth"),
         {{"controller", "provisioner"}, {"scheduling_id", ""}},
         static_cast<double>(state.pending));
}

void PodStartups::Observe(const SharedPods& pods, Metrics* m) {
  std::unordered_set<std::string> waiting;
  for (const LivePod& pod : pods) {
    if (pod.state.terminated) continue;
    if (pod.ready_since == TimePoint{}) {
      waiting.insert(pod.uid);
    } else if (waiting_.contains(pod.uid)) {
      m->Observe(Name("pods_startup_duration_seconds"), {},
                 InSeconds(pod.ready_since - pod.created));
    }
  }
  waiting_.swap(waiting);
}

void SetKarpenterUnsynced(Metrics* m) {
  m->Set(Name("cluster_state_synced"), {}, 0);
}

bool IsNodePoolGroup(const NodeGroup& group) {
  return group.declared_template &&
         group.declared_template->labels.contains(std::string(kNodePoolLabel));
}

void CountKarpenterProviderError(const std::string& provider,
                                 const char* controller, const char* method,
                                 Metrics* m) {
  m->Add(Name("cloudprovider_errors_total"), {{"controller", controller},
                                              {"method", method},
                                              {"provider", provider},
                                              {"error", ""}});
}

void CountKarpenterNodesCreated(const NodeGroup& group, int64_t nodes,
                                Metrics* m) {
  if (!IsNodePoolGroup(group)) return;
  const Labels& labels = group.declared_template->labels;
  const std::string pool = LabelOf(labels, kNodePoolLabel);
  m->Add(Name("nodes_created_total"),
         {{"nodepool", pool}, {"zone", LabelOf(labels, kube::kZoneLabel)}},
         static_cast<double>(nodes));
}

void CountKarpenterNodeTerminated(const NodeState& node, Duration took,
                                  Metrics* m) {
  const std::string pool = LabelOf(node.labels, kNodePoolLabel);
  if (pool.empty()) return;
  m->Add(
      Name("nodes_terminated_total"),
      {{"nodepool", pool}, {"zone", LabelOf(node.labels, kube::kZoneLabel)}});
  m->Observe(Name("nodes_termination_duration_seconds"), {{"nodepool", pool}},
             InSeconds(took));
}

void DeclareKarpenterCounters(Metrics* m) {
  m->DeclareCounter(Name("nodes_created_total"),
                    "Number of nodes created in total by Karpenter. Labeled "
                    "by owning nodepool and zone.");
  m->DeclareCounter(Name("nodes_terminated_total"),
                    "Number of nodes terminated in total by Karpenter. "
                    "Labeled by owning nodepool and zone.");
  m->DeclareSummary(Name("nodes_termination_duration_seconds"),
                    "The time taken between a node's deletion request and "
                    "the removal of its finalizer",
                    {0, 0.5, 0.9, 0.99, 1});
  m->DeclareCounter(Name("cloudprovider_errors_total"),
                    "Total number of errors returned from CloudProvider "
                    "calls.");
  m->DeclareHistogram(Name("scheduler_scheduling_duration_seconds"),
                      "Duration of scheduling simulations used for "
                      "deprovisioning and provisioning in seconds.",
                      DurationBuckets());
  m->DeclareHistogram(Name("voluntary_disruption_decision_evaluation_duration_"
                           "seconds"),
                      "Duration of the disruption decision evaluation "
                      "process in seconds. Labeled by method and "
                      "consolidation type.",
                      DurationBuckets());
  m->DeclareCounter(Name("voluntary_disruption_decisions_total"),
                    "Number of disruption decisions performed. Labeled by "
                    "disruption decision, reason, and consolidation type.");
  m->DeclareCounter(Name("voluntary_disruption_queue_failures_total"),
                    "The number of times that an enqueued disruption "
                    "decision failed. Labeled by disruption method.");
  m->DeclareGauge(Name("voluntary_disruption_eligible_nodes"),
                  "Number of nodes eligible for disruption by Karpenter. "
                  "Labeled by disruption reason.");
  m->DeclareGauge(Name("nodepools_allowed_disruptions"),
                  "The number of nodes for a given NodePool that can be "
                  "concurrently disrupting at a point in time. Labeled by "
                  "NodePool.");
}

void ObserveKarpenterScheduling(Duration took, Metrics* m) {
  m->Observe(Name("scheduler_scheduling_duration_seconds"),
             {{"controller", "provisioner"}}, InSeconds(took));
}

void ObserveKarpenterEvaluation(DisruptionMethod method, Duration took,
                                Metrics* m) {
  m->Observe(Name("voluntary_disruption_decision_evaluation_duration_seconds"),
             {{"reason", ReasonLabel(MethodReason(method))},
              {"consolidation_type", std::string(ConsolidationType(method))}},
             InSeconds(took));
}

void CountKarpenterDecision(const DisruptionCommand& command, Metrics* m) {
  m->Add(Name("voluntary_disruption_decisions_total"), DecisionLabels(command));
}

void CountKarpenterQueueFailure(const DisruptionCommand& command, Metrics* m) {
  m->Add(Name("voluntary_disruption_queue_failures_total"),
         DecisionLabels(command));
}

void SetKarpenterDisruptionGauges(const DisruptionPlan& plan, Metrics* m) {
  for (const auto& [reason, count] : plan.eligible) {
    m->Set(Name("voluntary_disruption_eligible_nodes"),
           {{"reason", ReasonLabel(reason)}}, static_cast<double>(count));
  }
  for (const PoolAllowanceReport& report : plan.allowances) {
    m->Set(Name("nodepools_allowed_disruptions"),
           {{"nodepool", report.pool},
            {"reason", std::string(DisruptionReasonName(report.reason))}},
           static_cast<double>(report.allowed));
  }
}

}  // namespace propscaler::nodescale
