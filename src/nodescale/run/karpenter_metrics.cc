#include "nodescale/run/karpenter_metrics.h"

#include <array>
#include <cctype>
#include <iterator>
#include <map>
#include <string_view>

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

// A decision's labels: decision, reason, consolidation_type.
MetricLabels DecisionLabels(const DisruptionCommand& command) {
  return {
      {"decision", std::string(command.action())},
      {"reason", ReasonLabel(command.reason)},
      {"consolidation_type", std::string(ConsolidationType(command.method))}};
}

}  // namespace

void DeclareKarpenterMetrics(Metrics* m) {
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
           {{"reason", ReasonLabel(reason)}},
           static_cast<double>(count));
  }
  for (const PoolAllowanceReport& report : plan.allowances) {
    m->Set(Name("nodepools_allowed_disruptions"),
           {{"nodepool", report.pool},
            {"reason", std::string(DisruptionReasonName(report.reason))}},
           static_cast<double>(report.allowed));
  }
}

}  // namespace propscaler::nodescale
