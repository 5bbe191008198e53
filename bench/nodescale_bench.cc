// Node-scale core benchmarks at the sizes issue 3 names: 10,000 and 100,000
// pending pods over 100 node groups planned for scale-up, and a scale-down
// pass over 1,000 nodes carrying 30,000 pods. Snapshots are generated with
// fixed seeds outside the timed loop. See bench/README.md for the figures.
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "nodescale/expander/chain.h"
#include "nodescale/plan/scale_down.h"
#include "nodescale/plan/scale_up.h"

namespace propscaler::nodescale {
namespace {

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;

Resources Amounts(int64_t cpu_millis, int64_t memory_bytes, int64_t pods) {
  Resources r;
  r.cpu_millis = cpu_millis;
  r.memory_bytes = memory_bytes;
  r.pods = pods;
  return r;
}

// 100 groups: four shapes (2..16 cpu, 4 or 8 GiB per cpu), a quarter in
// labelled pools, a tenth tainted for GPUs.
std::vector<NodeGroup> MakeGroups(int count) {
  std::vector<NodeGroup> groups;
  for (int i = 0; i < count; ++i) {
    const int64_t cpus = int64_t{2} << (i % 4);
    NodeGroup group;
    group.name = "group-" + std::to_string(i);
    group.max_size = 1000;
    group.price = 0.05 * static_cast<double>(cpus) + 0.001 * i;
    NodeTemplate t;
    t.allocatable = Amounts(cpus * 1000, cpus * (i % 2 ? 8 : 4) * kGi, 110);
    if (i % 4 == 1) t.labels["pool"] = "pool-" + std::to_string(i % 8);
    if (i % 10 == 9) {
      t.taints.push_back(
          {"nvidia.com/gpu", "present", TaintEffect::kNoSchedule});
    }
    group.declared_template = t;
    groups.push_back(std::move(group));
  }
  return groups;
}

// `count` pending pods from deployments of 20 replicas, each deployment's
// shape made by `make_shape(deployment, rng)`; pods are named
// <owner>-<replica>.
template <typename MakeShape>
std::vector<PodState> Deployments(int count, uint64_t seed,
                                  const MakeShape& make_shape) {
  std::mt19937_64 rng(seed);
  std::vector<PodState> pods;
  pods.reserve(count);
  PodState shape;
  for (int i = 0; i < count; ++i) {
    if (i % 20 == 0) shape = make_shape(i / 20, rng);
    PodState pod = shape;
    pod.name = shape.owner_name.get() + "-" + std::to_string(i % 20);
    pods.push_back(std::move(pod));
  }
  return pods;
}

// A ReplicaSet-owned pod labelled app=<owner>.
PodState Owned(const std::string& ns, const std::string& owner,
               const Resources& requests) {
  PodState shape;
  shape.namespace_ = ns;
  shape.owner_kind = "ReplicaSet";
  shape.owner_name = owner;
  shape.labels = {{"app", owner}};
  shape.requests = requests;
  return shape;
}

// Deployments with random requests; one in five selects a pool, one in
// twenty tolerates GPUs.
std::vector<PodState> MakePendingPods(int count, uint64_t seed) {
  return Deployments(count, seed, [](int deployment, std::mt19937_64& rng) {
    PodState shape = Owned(
        "ns-" + std::to_string(deployment % 50),
        "deploy-" + std::to_string(deployment),
        Amounts(100 + static_cast<int64_t>(rng() % 1900),
                128 * kMi + static_cast<int64_t>(rng() % 31) * 128 * kMi, 1));
    if (deployment % 5 == 0) {
      shape.node_selector = {{"pool", "pool-" + std::to_string(rng() % 8)}};
    }
    if (deployment % 20 == 3) {
      shape.tolerations = {{"nvidia.com/gpu", Toleration::Op::kExists, ""}};
    }
    return shape;
  });
}

void PlanScaleUpBench(benchmark::State& state) {
  ClusterSnapshot snapshot;
  snapshot.pods =
      PodList(MakePendingPods(static_cast<int>(state.range(0)), 42));
  const std::vector<NodeGroup> groups = MakeGroups(100);
  int64_t nodes = 0;
  size_t increases = 0;
  for (auto _ : state) {
    std::mt19937_64 rng(1);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    ScaleUpPlan plan = PlanScaleUp(snapshot, groups, {}, {}, chain->get());
    nodes = 0;
    increases = plan.increases.size();
    for (const GroupIncrease& inc : plan.increases) nodes += inc.delta;
    benchmark::DoNotOptimize(plan);
  }
  state.counters["new_nodes"] = static_cast<double>(nodes);
  state.counters["groups_grown"] = static_cast<double>(increases);
  state.counters["pods_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(PlanScaleUpBench)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// Karpenter's "diverse" scheduling benchmark mix, in deployments of 20
// replicas that share an app label and a shape: one fifth each plain,
// spread over zones (maxSkew 1), spread over hostnames (maxSkew 1),
// required affinity to their own app in a zone, and required anti-affinity
// to their own app per hostname; cpu 100m-1500m, memory 100Mi-4Gi. The
// groups are four shapes in each of three zones.
constexpr const char* kZoneKey = "topology.kubernetes.io/zone";

std::vector<NodeGroup> MakeZonalGroups(int64_t max_size) {
  std::vector<NodeGroup> groups;
  for (int zone = 0; zone < 3; ++zone) {
    for (int shape = 0; shape < 4; ++shape) {
      const int64_t cpus = int64_t{4} << shape;
      NodeGroup group;
      group.name = "zone-" + std::to_string(zone) + "-" + std::to_string(cpus);
      group.max_size = max_size;
      NodeTemplate t;
      t.allocatable = Amounts(cpus * 1000, cpus * 4 * kGi, 110);
      t.labels[kZoneKey] = "zone-" + std::to_string(zone);
      group.declared_template = t;
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

std::vector<PodState> MakeDiversePods(int count, uint64_t seed) {
  return Deployments(count, seed, [](int deployment, std::mt19937_64& rng) {
    PodState shape = Owned(
        "default", "diverse-" + std::to_string(deployment),
        Amounts(100 + static_cast<int64_t>(rng() % 1401),
                100 * kMi + static_cast<int64_t>(rng() % (3996 * kMi)), 1));
    const LabelSelector own =
        *LabelSelector::Parse("app=" + shape.owner_name.get());
    switch (deployment % 5) {
      case 1:
        shape.spread = {{1, kZoneKey, own, 0}};
        break;
      case 2:
        shape.spread = {{1, "kubernetes.io/hostname", own, 0}};
        break;
      case 3:
        shape.affinity = {{own, {}, kZoneKey}};
        break;
      case 4:
        shape.anti_affinity = {{own, {}, "kubernetes.io/hostname"}};
        break;
      default:
        break;
    }
    return shape;
  });
}

// The second argument caps each group and each scale-up (group max size and
// --max-nodes-per-scaleup); at 1,000 (Cluster Autoscaler's default) the
// small shapes fill up from about 10,000 pods on, and each round's winner
// stops at its cap.
void PlanScaleUpDiverseBench(benchmark::State& state) {
  ClusterSnapshot snapshot;
  snapshot.pods =
      PodList(MakeDiversePods(static_cast<int>(state.range(0)), 42));
  const std::vector<NodeGroup> groups = MakeZonalGroups(state.range(1));
  ScaleUpConfig config;
  config.limits.max_nodes_per_scale_up = state.range(1);
  int64_t nodes = 0;
  size_t left = 0;
  for (auto _ : state) {
    std::mt19937_64 rng(1);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    ScaleUpPlan plan = PlanScaleUp(snapshot, groups, {}, config, chain->get());
    nodes = 0;
    for (const GroupIncrease& inc : plan.increases) nodes += inc.delta;
    left = plan.unschedulable.size();
    benchmark::DoNotOptimize(plan);
  }
  state.counters["new_nodes"] = static_cast<double>(nodes);
  state.counters["pods_left"] = static_cast<double>(left);
  state.counters["pods_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(PlanScaleUpDiverseBench)
    ->ArgNames({"pods", "cap"})
    ->ArgsProduct({{100, 1000, 5000, 10000, 20000}, {1000}})
    ->ArgsProduct({{5000, 20000}, {100000}})
    ->Unit(benchmark::kMillisecond);

// 1,000 nodes of 16 cpu / 64 GiB in 10 groups, 30 pods each; a node's pods
// are sized so that utilization spreads from about 15% to 90%.
ClusterSnapshot MakeScaleDownSnapshot(std::vector<NodeGroup>* groups) {
  std::mt19937_64 rng(7);
  ClusterSnapshot snapshot;
  for (int g = 0; g < 10; ++g) {
    NodeGroup group;
    group.name = "group-" + std::to_string(g);
    group.max_size = 1000;
    group.target_size = 100;
    groups->push_back(group);
  }
  for (int n = 0; n < 1000; ++n) {
    NodeState node;
    node.name = "node-" + std::to_string(n);
    node.labels = {
        {"kubernetes.io/hostname", node.name},
        {"propscaler.io/node-group", "group-" + std::to_string(n % 10)}};
    node.allocatable = Amounts(16000, 64 * kGi, 110);
    node.ready = true;
    snapshot.nodes.push_back(node);
    const int64_t per_pod_cpu = 80 + static_cast<int64_t>(rng() % 400);
    for (int p = 0; p < 30; ++p) {
      PodState pod;
      pod.namespace_ = "ns-" + std::to_string(p % 20);
      pod.name = node.name + "-pod-" + std::to_string(p);
      pod.node_name = node.name;
      pod.owner_kind = p == 0 ? "DaemonSet" : "ReplicaSet";
      pod.owner_name = p == 0 ? "logs" : "rs-" + std::to_string(p);
      pod.requests = Amounts(per_pod_cpu, per_pod_cpu * 3 * kMi, 1);
      snapshot.pods.push_back(std::move(pod));
    }
  }
  return snapshot;
}

void PlanScaleDownBench(benchmark::State& state) {
  std::vector<NodeGroup> groups;
  const ClusterSnapshot snapshot = MakeScaleDownSnapshot(&groups);
  size_t removed = 0;
  for (auto _ : state) {
    ScaleDownPlan plan = PlanScaleDown(snapshot, groups, {});
    removed = plan.removals.size();
    benchmark::DoNotOptimize(plan);
  }
  state.counters["removed_nodes"] = static_cast<double>(removed);
}
BENCHMARK(PlanScaleDownBench)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace propscaler::nodescale
