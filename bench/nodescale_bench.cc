// Node-scale core benchmarks at the sizes issue 3 names: 10,000 and 100,000
// pending pods over 100 node groups planned for scale-up, and a scale-down
// pass over 1,000 nodes carrying 30,000 pods. Snapshots are generated with
// fixed seeds outside the timed loop. See bench/README.md for the figures.
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "checks/karpenter_mix.h"
#include "checks/plan_checks.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/volume_needs.h"

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

// The timed loop: a fresh `expander` chain and a plan from scratch each
// iteration; the last plan, for the checks.
ScaleUpPlan TimePlanScaleUp(const ClusterSnapshot& snapshot,
                            const std::vector<NodeGroup>& groups,
                            const ScaleUpConfig& config,
                            const std::string& expander,
                            benchmark::State& state) {
  ScaleUpPlan plan;
  for (auto _ : state) {
    std::mt19937_64 rng(1);
    auto chain = MakeExpanderChain(expander, {}, &rng);
    plan = PlanScaleUp(snapshot, groups, {}, config, chain->get());
    benchmark::DoNotOptimize(plan);
  }
  return plan;
}

int64_t NewNodes(const ScaleUpPlan& plan) {
  int64_t nodes = 0;
  for (const GroupIncrease& inc : plan.increases) nodes += inc.delta;
  return nodes;
}

// Whether some pods of a mix have no group that takes them (pods_left is
// then a figure), or every pod must be placed (a pod left is a failure).
enum class Leftovers { kAllowed, kNone };

// The plan's counters, and the benchmark failed when the plan does not
// hold (bench/checks): it is checked once, outside the timed loop.
void CheckScaleUp(const ClusterSnapshot& snapshot,
                  const std::vector<NodeGroup>& groups, const ScaleUpPlan& plan,
                  Leftovers leftovers, benchmark::State& state) {
  state.counters["new_nodes"] = static_cast<double>(NewNodes(plan));
  state.counters["groups_grown"] = static_cast<double>(plan.increases.size());
  state.counters["pods_left"] = static_cast<double>(plan.unschedulable.size());
  state.counters["lower_bound"] =
      static_cast<double>(bench::ScaleUpLowerBound(snapshot, groups, plan));
  if (leftovers == Leftovers::kNone && !plan.unschedulable.empty()) {
    state.SkipWithError((std::to_string(plan.unschedulable.size()) +
                         " pods left unscheduled, every one of which a group "
                         "takes; the first " +
                         plan.unschedulable[0].pod)
                            .c_str());
    return;
  }
  const bench::Failures failures =
      bench::CheckScaleUpPlan(snapshot, groups, plan);
  if (!failures.empty()) {
    state.SkipWithError(bench::Summarize(failures).c_str());
  }
}

void PlanScaleUpBench(benchmark::State& state) {
  ClusterSnapshot snapshot;
  snapshot.pods =
      PodList(MakePendingPods(static_cast<int>(state.range(0)), 42));
  const std::vector<NodeGroup> groups = MakeGroups(100);
  const ScaleUpPlan plan =
      TimePlanScaleUp(snapshot, groups, ScaleUpConfig{}, "least-waste", state);
  CheckScaleUp(snapshot, groups, plan, Leftovers::kAllowed, state);
  state.counters["pods_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(PlanScaleUpBench)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// Our own zonal mix, in deployments of 20 replicas that share an app label
// and a shape: one fifth each plain, spread over zones (maxSkew 1), spread
// over hostnames (maxSkew 1), required affinity to their own app in a zone,
// and required anti-affinity to their own app per hostname; cpu
// 100m-1500m, memory 100Mi-4Gi. The groups are four shapes in each of three
// zones. (Called "diverse" before issue 42; Karpenter's mix is below.)
constexpr const char* kZoneKey = "topology.kubernetes.io/zone";
constexpr const char* kHostnameKey = "kubernetes.io/hostname";

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

std::vector<PodState> MakeZonalDeploymentPods(int count, uint64_t seed) {
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
        shape.spread = {{1, kHostnameKey, own, 0}};
        break;
      case 3:
        shape.affinity = {{own, {}, kZoneKey}};
        break;
      case 4:
        shape.anti_affinity = {{own, {}, kHostnameKey}};
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
void PlanScaleUpZonalDeploymentsBench(benchmark::State& state) {
  ClusterSnapshot snapshot;
  snapshot.pods =
      PodList(MakeZonalDeploymentPods(static_cast<int>(state.range(0)), 42));
  const std::vector<NodeGroup> groups = MakeZonalGroups(state.range(1));
  ScaleUpConfig config;
  config.limits.max_nodes_per_scale_up = state.range(1);
  const ScaleUpPlan plan =
      TimePlanScaleUp(snapshot, groups, config, "least-waste", state);
  CheckScaleUp(snapshot, groups, plan, Leftovers::kNone, state);
  state.counters["pods_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(PlanScaleUpZonalDeploymentsBench)
    ->ArgNames({"pods", "cap"})
    ->ArgsProduct({{100, 1000, 5000, 10000, 20000}, {1000}})
    ->ArgsProduct({{5000, 20000}, {100000}})
    ->Unit(benchmark::kMillisecond);

// Issue 43's cost of volumes: the zonal deployments above, of which every
// tenth is a StatefulSet whose pods each hold a claim (10% of the pods),
// against the same pods without claims (claims:0). claims:1 binds each to
// a PV in one zone (a harder plan: the pods may not go where they fit
// best); claims:2 to a PV whose affinity allows every zone, so that the
// plan is the same and only the checks' cost differs. The timed loop
// resolves the claims (as the live loop does each iteration) and plans; the
// plan is checked as above, which places pods through the same predicates.
void PlanScaleUpZonalVolumesBench(benchmark::State& state) {
  const bool claims = state.range(1) != 0;
  const bool every_zone = state.range(1) == 2;
  std::vector<PodState> pods =
      MakeZonalDeploymentPods(static_cast<int>(state.range(0)), 42);
  kube::VolumeObjects objects;
  for (size_t i = 0; claims && i < pods.size(); ++i) {
    if ((i / 20) % 10 != 0) continue;
    PodState& pod = pods[i];
    pod.owner_kind = "StatefulSet";
    const std::string claim = "data-" + pod.name;
    pod.claims = std::vector<kube::PodClaim>{{claim, false}};
    kube::PersistentVolume volume;
    volume.name = "pv-" + pod.name;
    std::vector<std::string> zones = {"zone-" + std::to_string(i % 3)};
    if (every_zone) zones = {"zone-0", "zone-1", "zone-2"};
    volume.node_affinity = {
        {{{kZoneKey, NodeSelectorRequirement::Op::kIn, std::move(zones)}}}};
    kube::PersistentVolumeClaim bound;
    bound.namespace_ = pod.namespace_;
    bound.name = claim;
    bound.volume_name = volume.name;
    bound.bind_completed = true;
    const std::string claim_key = bound.Key();
    const std::string volume_name = volume.name;
    objects.claims[claim_key] =
        std::make_shared<const kube::PersistentVolumeClaim>(std::move(bound));
    objects.volumes[volume_name] =
        std::make_shared<const kube::PersistentVolume>(std::move(volume));
  }
  ClusterSnapshot base;
  base.pods = PodList(std::move(pods));
  const std::vector<NodeGroup> groups = MakeZonalGroups(1000);
  ScaleUpConfig config;
  config.limits.max_nodes_per_scale_up = 1000;
  ScaleUpPlan plan;
  ClusterSnapshot snapshot;
  for (auto _ : state) {
    snapshot = base;
    ResolveSnapshotVolumes(objects, &snapshot);
    std::mt19937_64 rng(1);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    plan = PlanScaleUp(snapshot, groups, {}, config, chain->get());
    benchmark::DoNotOptimize(plan);
  }
  CheckScaleUp(snapshot, groups, plan, Leftovers::kNone, state);
}
BENCHMARK(PlanScaleUpZonalVolumesBench)
    ->ArgNames({"pods", "claims"})
    ->ArgsProduct({{5000, 20000}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);

// Karpenter fails its benchmark unless every pod schedules; so does this,
// besides the plan's own checks. Karpenter's figures for the same mix are
// in bench/README.md.
void PlanScaleUpKarpenterMixBench(benchmark::State& state) {
  ClusterSnapshot snapshot;
  snapshot.pods = PodList(
      bench::KarpenterDiversePods(static_cast<int>(state.range(0)), 42));
  const std::vector<NodeGroup> groups = bench::KarpenterInstanceTypeGroups();
  ScaleUpConfig config;
  config.limits.max_nodes_per_scale_up = 1'000'000;
  const ScaleUpPlan plan =
      TimePlanScaleUp(snapshot, groups, config, "price", state);
  CheckScaleUp(snapshot, groups, plan, Leftovers::kNone, state);
  state.counters["pods_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(PlanScaleUpKarpenterMixBench)
    ->ArgName("pods")
    ->Arg(100)
    ->Arg(1000)
    ->Arg(5000)
    ->Unit(benchmark::kMillisecond);
// Karpenter's two larger sizes, apart: with 2,000 groups the planner takes
// minutes there (bench/README.md), so a run asks for them by name
// (--benchmark_filter=KarpenterMixLarge), one iteration each.
void PlanScaleUpKarpenterMixLargeBench(benchmark::State& state) {
  PlanScaleUpKarpenterMixBench(state);
}
BENCHMARK(PlanScaleUpKarpenterMixLargeBench)
    ->ArgName("pods")
    ->Arg(10000)
    ->Arg(20000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// Cluster Autoscaler's RunOnce scale-up shape (kubernetes/autoscaler,
// cluster-autoscaler/core/bench/benchmark_runonce_test.go): one group of
// nodes with 10 cpu and 10,000 bytes, pods with no controller asking for a
// fiftieth of a node (200m, 200 bytes), 50 pods for each node wanted. Here
// the planner alone (no loop, no API): the plan must ask for exactly that
// many nodes, as CA's benchmark verifies the group's target size.
void PlanScaleUpCaShapeBench(benchmark::State& state) {
  const int64_t nodes_wanted = state.range(0);
  constexpr int64_t kPodsPerNode = 50;
  NodeGroup group;
  group.name = "ng1";
  group.max_size = 10000;
  NodeTemplate t;
  t.allocatable = Amounts(10000, 10000, 110);
  group.declared_template = t;
  const std::vector<NodeGroup> groups = {group};
  std::vector<PodState> pods;
  for (int64_t i = 0; i < nodes_wanted * kPodsPerNode; ++i) {
    PodState pod;
    pod.namespace_ = "default";
    pod.name = "pod-" + std::to_string(i);
    pod.requests = Amounts(10000 / kPodsPerNode, 10000 / kPodsPerNode, 1);
    pods.push_back(std::move(pod));
  }
  ClusterSnapshot snapshot;
  snapshot.pods = PodList(std::move(pods));
  ScaleUpConfig config;
  config.limits.max_nodes_per_scale_up = 10000;
  const ScaleUpPlan plan =
      TimePlanScaleUp(snapshot, groups, config, "least-waste", state);
  if (NewNodes(plan) != nodes_wanted) {
    state.SkipWithError(("the plan asks for " + std::to_string(NewNodes(plan)) +
                         " nodes, not " + std::to_string(nodes_wanted))
                            .c_str());
    return;
  }
  CheckScaleUp(snapshot, groups, plan, Leftovers::kNone, state);
}
// CA's stored benchmark asks for 200 nodes; issue 42 names 1,000 (50,000
// pods).
BENCHMARK(PlanScaleUpCaShapeBench)
    ->ArgName("nodes")
    ->Arg(200)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);

// Cluster Autoscaler's RunOnce scale-down shape (the same file): one group
// of nodes with 10 cpu and 10,000 bytes, 40 pods on each asking for 1% of a
// node, safe to evict: 60% of the nodes can go, and CA's benchmark checks
// that exactly that many are marked. Here the planner alone: its plan must
// remove exactly 60%.
void PlanScaleDownCaShapeBench(benchmark::State& state) {
  const int64_t node_count = state.range(0);
  NodeGroup group;
  group.name = "ng1";
  group.max_size = 10000;
  group.target_size = node_count;
  const std::vector<NodeGroup> groups = {group};
  ClusterSnapshot snapshot;
  std::vector<PodState> pods;
  for (int64_t n = 0; n < node_count; ++n) {
    NodeState node;
    node.name = "ng1-node-" + std::to_string(n);
    node.labels = {{"kubernetes.io/hostname", node.name},
                   {"propscaler.io/node-group", group.name}};
    node.allocatable = Amounts(10000, 10000, 110);
    node.ready = true;
    snapshot.nodes.push_back(std::move(node));
  }
  for (int64_t i = 0; i < node_count * 40; ++i) {
    PodState pod;
    pod.namespace_ = "default";
    pod.name = "pod-" + std::to_string(i);
    pod.node_name = snapshot.nodes[i % node_count].name;
    pod.requests = Amounts(100, 100, 1);
    pod.annotations = Labels{{std::string(kSafeToEvictAnnotation), "true"}};
    pods.push_back(std::move(pod));
  }
  snapshot.pods = PodList(std::move(pods));
  ScaleDownPlan plan;
  for (auto _ : state) {
    plan = PlanScaleDown(snapshot, groups, {});
    benchmark::DoNotOptimize(plan);
  }
  state.counters["removed_nodes"] = static_cast<double>(plan.removals.size());
  const int64_t wanted = node_count * 6 / 10;
  if (static_cast<int64_t>(plan.removals.size()) != wanted) {
    state.SkipWithError(("the plan removes " +
                         std::to_string(plan.removals.size()) + " nodes, not " +
                         std::to_string(wanted))
                            .c_str());
  }
}
// CA's stored benchmark has 400 nodes; issue 42 names 2,000.
BENCHMARK(PlanScaleDownCaShapeBench)
    ->ArgName("nodes")
    ->Arg(400)
    ->Arg(2000)
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

// The plan is checked (bench/checks: no node at or above the threshold,
// every moved pod fits on the nodes that stay), and must remove some of the
// nodes under the threshold: a planner that removes nothing is wrong here.
void PlanScaleDownBench(benchmark::State& state) {
  std::vector<NodeGroup> groups;
  const ClusterSnapshot snapshot = MakeScaleDownSnapshot(&groups);
  ScaleDownPlan plan;
  for (auto _ : state) {
    plan = PlanScaleDown(snapshot, groups, {});
    benchmark::DoNotOptimize(plan);
  }
  state.counters["removed_nodes"] = static_cast<double>(plan.removals.size());
  const bench::Failures failures =
      bench::CheckScaleDownPlan(snapshot, groups, {}, plan);
  if (!failures.empty()) {
    state.SkipWithError(bench::Summarize(failures).c_str());
  } else if (plan.removals.empty()) {
    state.SkipWithError(
        "the plan removes no node of 1,000, about half of "
        "them under the utilization threshold");
  }
}
BENCHMARK(PlanScaleDownBench)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace propscaler::nodescale
