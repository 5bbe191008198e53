// Karpenter's own scheduling benchmark, planned as Karpenter plans it: its
// diverse pods over one NodePool of its 400 fake instance types
// (bench/checks/karpenter_mix.h), by nodescale/plan/claims. Each run's plan
// is checked apart (bench/checks/claim_plan_checks.h: spreads as pods land,
// affinities, each claim's room, the lower bound) and must use no more
// nodes than Karpenter's, one per anti-affinity pod (pods / 5). The time
// targets are Karpenter's best published figures (bench/checks/
// time_targets.cc). See bench/README.md.
#include <benchmark/benchmark.h>

#include <string>

#include "checks/claim_plan_checks.h"
#include "checks/karpenter_mix.h"
#include "nodescale/domain/kwok_catalogue.h"
#include "nodescale/plan/claims/claim_scheduler.h"

namespace propscaler::nodescale {
namespace {

void CheckClaims(const ClusterSnapshot& snapshot,
                 const std::vector<NodePoolSpec>& pools,
                 const std::vector<InstanceType>& catalogue,
                 const ClaimPlan& plan, int64_t most_nodes,
                 benchmark::State& state) {
  state.counters["new_nodes"] = static_cast<double>(plan.claims.size());
  state.counters["pods_left"] = static_cast<double>(plan.unschedulable.size());
  state.counters["lower_bound"] =
      static_cast<double>(bench::ClaimLowerBound(snapshot, catalogue));
  if (!plan.unschedulable.empty()) {
    const UnplacedPod& first = plan.unschedulable.front();
    state.SkipWithError(
        (std::to_string(plan.unschedulable.size()) +
         " pods left unscheduled; the first " + snapshot.pods[first.pod].Key() +
         ": " +
         (first.reasons.empty() ? "no NodePool"
                                : first.reasons.begin()->second))
            .c_str());
    return;
  }
  if (most_nodes > 0 && static_cast<int64_t>(plan.claims.size()) > most_nodes) {
    state.SkipWithError((std::to_string(plan.claims.size()) +
                         " nodes, more than Karpenter's " +
                         std::to_string(most_nodes))
                            .c_str());
    return;
  }
  const bench::Failures failures =
      bench::CheckClaimPlan(snapshot, pools, catalogue, plan);
  if (!failures.empty())
    state.SkipWithError(bench::Summarize(failures).c_str());
}

void PlanClaimsKarpenterMixBench(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  ClusterSnapshot snapshot;
  snapshot.pods = PodList(bench::KarpenterDiversePods(pods, 42));
  const std::vector<NodePoolSpec> pools = {bench::KarpenterNodePool()};
  const std::vector<InstanceType> catalogue = bench::KarpenterInstanceTypes();
  ClaimPlan plan;
  for (auto _ : state) {
    plan = ScheduleClaims({&snapshot, &pools, &catalogue});
    benchmark::DoNotOptimize(plan);
  }
  // Karpenter's figures have one node per anti-affinity pod from 1,000 on.
  CheckClaims(snapshot, pools, catalogue, plan, pods >= 1000 ? pods / 5 : 0,
              state);
  state.counters["pods_per_s"] =
      benchmark::Counter(static_cast<double>(pods) * state.iterations(),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(PlanClaimsKarpenterMixBench)
    ->ArgName("pods")
    ->Arg(100)
    ->Arg(1000)
    ->Arg(5000)
    ->Arg(10000)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond);

// The same mix over Karpenter's kwok catalogue (144 types in four zones,
// its kwok provider's default) in one NodePool with no requirements.
void PlanClaimsKwokCatalogueBench(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  ClusterSnapshot snapshot;
  snapshot.pods = PodList(bench::KarpenterDiversePods(pods, 42));
  const std::vector<NodePoolSpec> pools = {bench::KarpenterNodePool()};
  const std::vector<InstanceType> catalogue = KwokDefaultInstanceTypes();
  ClaimPlan plan;
  for (auto _ : state) {
    plan = ScheduleClaims({&snapshot, &pools, &catalogue});
    benchmark::DoNotOptimize(plan);
  }
  CheckClaims(snapshot, pools, catalogue, plan, pods / 5, state);
  state.counters["pods_per_s"] =
      benchmark::Counter(static_cast<double>(pods) * state.iterations(),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(PlanClaimsKwokCatalogueBench)
    ->ArgName("pods")
    ->Arg(1000)
    ->Arg(5000)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace propscaler::nodescale
