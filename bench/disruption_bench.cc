// The whole disruption pass (every method, as `propscaler simulate` previews
// it) at the sizes issue 26 names: 1,000 nodes with 30,000 pods and 5,000
// nodes with 150,000 pods. Two clusters per size, generated with fixed seeds
// outside the timed loop:
//
// - "mixed": utilizations spread from about 10% to 95%, 2% of nodes empty,
//   5% drifted, a PDB with no disruptions left over a pod on one node in 50
//   and do-not-disrupt on one pod in 500, two pools (a 10% budget and a
//   budget of 5 nodes), on-demand and spot groups of 4, 8, 16 and 32 cpu.
// - "full": every node 97% used, so no pod fits on another node, and one
//   price per cpu for every group, so no replacement is strictly cheaper: every
//   method tries every candidate and finds nothing (the worst case for the
//   single-node pass).
//
// See bench/README.md for the figures.
#include <benchmark/benchmark.h>

#include <random>
#include <set>
#include <string>

#include "checks/plan_checks.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/simulation/template_hash.h"

namespace propscaler::nodescale {
namespace {

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;
constexpr int kPodsPerNode = 30;

Resources Amounts(int64_t cpu_millis, int64_t memory_bytes, int64_t pods) {
  Resources r;
  r.cpu_millis = cpu_millis;
  r.memory_bytes = memory_bytes;
  r.pods = pods;
  return r;
}

struct Cluster {
  ClusterSnapshot snapshot;
  DisruptionInput input;
};

// Eight groups: 4, 8, 16, 32 cpu (4 GiB per cpu), on-demand and spot;
// the price per cpu the same for all, or with `spot_discount` a third for
// spot; "batch" pool for the spot groups.
std::vector<NodeGroup> MakePricedGroups(int nodes, bool spot_discount) {
  std::vector<NodeGroup> groups;
  for (int shape = 0; shape < 4; ++shape) {
    for (const char* capacity : {"on-demand", "spot"}) {
      const int64_t cpus = int64_t{4} << shape;
      NodeGroup group;
      group.name = std::string(capacity) + "-" + std::to_string(cpus);
      group.capacity_type = capacity;
      group.pool = group.capacity_type == "spot" ? "batch" : "general";
      group.max_size = nodes * 2;
      group.price =
          0.048 * static_cast<double>(cpus) /
          (spot_discount && group.capacity_type == "spot" ? 3.0 : 1.0);
      group.declared_template =
          NodeTemplate{Amounts(cpus * 1000, cpus * 4 * kGi, 110), {}, {}};
      group.declared_template->labels["topology.kubernetes.io/zone"] = "z1";
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

std::vector<NodePool> MakePools() {
  NodePool general{"general"};
  general.budgets = {DisruptionBudget{"10%"}};
  NodePool batch{"batch"};
  batch.budgets = {DisruptionBudget{"5"}};
  return {general, batch};
}

// Nodes of 16 cpu spread over the 16-cpu groups, each with 30 pods (one a
// DaemonSet pod); `full` packs every node to 97%.
Cluster MakeCluster(int node_count, bool full) {
  std::mt19937_64 rng(11);
  Cluster cluster;
  cluster.input.groups = MakePricedGroups(node_count, !full);
  cluster.input.pools = MakePools();
  const TimePoint now = std::chrono::system_clock::from_time_t(1'800'000'000);
  cluster.input.now = now;
  std::vector<PodState> pods;
  pods.reserve(static_cast<size_t>(node_count) * kPodsPerNode);
  for (int n = 0; n < node_count; ++n) {
    NodeGroup& group = cluster.input.groups[4 + n % 2];  // the 16-cpu pair
    ++group.target_size;
    NodeState node;
    node.name = "node-" + std::to_string(n);
    node.labels = group.declared_template->labels;
    node.labels["kubernetes.io/hostname"] = node.name;
    node.labels["propscaler.io/node-group"] = group.name;
    node.allocatable = group.declared_template->allocatable;
    node.ready = true;
    node.created = now - std::chrono::hours(24 + n % 48);
    node.annotations[std::string(nodescale::kTemplateHashAnnotation)] =
        !full && n % 20 == 7 ? "stale" : TemplateHash(*group.declared_template);
    cluster.snapshot.nodes.push_back(node);
    cluster.input.life.push_back({node.created, node.created});
    const bool empty = !full && n % 50 == 13;
    const int64_t used_percent =
        full ? 97 : 10 + static_cast<int64_t>(rng() % 86);
    const int64_t per_pod = 16000 * used_percent / 100 / kPodsPerNode;
    for (int p = 0; p < (empty ? 1 : kPodsPerNode); ++p) {
      PodState pod;
      pod.namespace_ = "ns-" + std::to_string(p % 20);
      pod.name = node.name + "-pod-" + std::to_string(p);
      pod.node_name = node.name;
      pod.owner_kind = p == 0 ? "DaemonSet" : "ReplicaSet";
      pod.owner_name = p == 0 ? "logs" : "deploy-" + std::to_string(p);
      Labels labels = {{"app", pod.owner_name}};
      if (p == 7 && n % 50 == 21) labels["guarded"] = "true";
      pod.labels = labels;
      pod.requests = Amounts(per_pod, per_pod * 3 * kMi, 1);
      if (!full && (n * kPodsPerNode + p) % 500 == 99) {
        pod.annotations =
            Labels{{std::string(kube::kDoNotDisruptAnnotation), "true"}};
      }
      pods.push_back(std::move(pod));
    }
  }
  cluster.snapshot.pods = PodList(std::move(pods));
  if (!full) {
    // The pods of deploy-7 on one node in 50 have no disruptions left.
    PdbState pdb;
    pdb.namespace_ = "ns-7";
    pdb.name = "guarded";
    pdb.selector = *LabelSelector::Parse("guarded=true");
    pdb.disruptions_allowed = 0;
    cluster.snapshot.pdbs.push_back(pdb);
  }
  return cluster;
}

// Every command checked (bench/checks), and the methods each cluster is
// built to give: the mixed one a command from emptiness, drift and both
// consolidations; the full one none at all.
bench::Failures CheckPlan(const DisruptionInput& input,
                          const DisruptionPlan& plan, bool full) {
  bench::Failures failures;
  std::set<DisruptionMethod> methods;
  for (const DisruptionCommand& command : plan.previews) {
    methods.insert(command.method);
    for (std::string& failure :
         bench::CheckDisruptionCommand(input, plan, command)) {
      failures.push_back(std::move(failure));
    }
  }
  const std::set<DisruptionMethod> expected =
      full ? std::set<DisruptionMethod>{}
           : std::set<DisruptionMethod>{
                 DisruptionMethod::kEmptiness, DisruptionMethod::kDrift,
                 DisruptionMethod::kMultiNode, DisruptionMethod::kSingleNode};
  if (methods != expected) {
    std::string got;
    for (DisruptionMethod method : methods) {
      got += " " + std::string(DisruptionMethodName(method));
    }
    failures.push_back("the methods with a command were [" + got +
                       " ], not the ones the cluster is built to give");
  }
  return failures;
}

void DisruptionPassBench(benchmark::State& state) {
  Cluster cluster =
      MakeCluster(static_cast<int>(state.range(0)), state.range(1) == 1);
  cluster.input.snapshot = &cluster.snapshot;
  DisruptionOptions options;
  options.preview = true;
  DisruptionPlan plan;
  for (auto _ : state) {
    plan = PlanDisruption(cluster.input, options);
    benchmark::DoNotOptimize(plan);
  }
  state.counters["blocked"] = static_cast<double>(plan.blocked.size());
  // Nodes in each method's first command.
  for (const DisruptionCommand& command : plan.previews) {
    state.counters[std::string(DisruptionMethodName(command.method))] =
        static_cast<double>(command.nodes.size());
  }
  const bench::Failures failures =
      CheckPlan(cluster.input, plan, state.range(1) == 1);
  if (!failures.empty()) {
    state.SkipWithError(bench::Summarize(failures).c_str());
  }
}
// Args: nodes (30 pods each), full (1) or mixed (0).
BENCHMARK(DisruptionPassBench)
    ->ArgNames({"nodes", "full"})
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({5000, 0})
    ->Args({5000, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace propscaler::nodescale
