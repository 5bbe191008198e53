#include "replicas/arithmetic.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <variant>
#include <vector>

namespace propscaler {
namespace {

// Converts a double to int64, saturating instead of the undefined behaviour
// of an out-of-range cast. NaN (impossible from validated params) is 0.
int64_t SaturatingToInt64(double d) {
  // 2^63 is exactly representable; every double below it fits int64.
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (std::isnan(d)) return 0;
  if (d >= kTwoTo63) return std::numeric_limits<int64_t>::max();
  if (d < -kTwoTo63) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

// CPA's getExpectedReplicasFromParam: ceil(resources / per replica), capped
// at max when max is set, then raised to min (0 meaning 1). A zero per-replica
// value does not constrain: 1.
int64_t OneResource(int64_t resources, double per_replica,
                    const LinearParams& params) {
  if (per_replica == 0) return 1;
  int64_t replicas = SaturatingToInt64(
      std::ceil(static_cast<double>(resources) / per_replica));
  if (params.max != 0) replicas = std::min(replicas, params.max);
  int64_t min = params.min == 0 ? 1 : params.min;
  return std::max(replicas, min);
}

// CPA's getExpectedReplicasFromEntries: the replicas of the last step whose
// threshold is at most `resources`; below the first threshold, the first
// step; no steps, 0. Steps are sorted by threshold.
int64_t LadderLookup(int64_t resources, const std::vector<LadderStep>& steps) {
  if (steps.empty()) return 0;
  auto above = std::upper_bound(
      steps.begin(), steps.end(), resources,
      [](int64_t r, const LadderStep& step) { return r < step.threshold; });
  if (above == steps.begin()) return steps.front().replicas;
  return std::prev(above)->replicas;
}

}  // namespace

int64_t LinearReplicas(const LinearParams& params,
                       const ClusterCounts& counts) {
  int64_t nodes = params.include_unschedulable_nodes ? counts.total_nodes
                                                     : counts.schedulable_nodes;
  int64_t cores = params.include_unschedulable_nodes ? counts.total_cores
                                                     : counts.schedulable_cores;
  int64_t from_cores = OneResource(cores, params.cores_per_replica, params);
  int64_t from_nodes = OneResource(nodes, params.nodes_per_replica, params);
  // Applied after the max clamp, as CPA does: with more than one node there
  // are at least two replicas even when max is 1.
  if (params.prevent_single_point_failure && nodes > 1 && from_nodes < 2) {
    from_nodes = 2;
  }
  // Pods, where counted, combine as cores and nodes do: the largest wins.
  const int64_t from_pods = params.pods_per_replica
                                ? OneResource(counts.pods.value_or(0),
                                              *params.pods_per_replica, params)
                                : 1;
  return std::max({from_cores, from_nodes, from_pods});
}

int64_t LadderReplicas(const LadderParams& params,
                       const ClusterCounts& counts) {
  int64_t nodes = params.include_unschedulable_nodes ? counts.total_nodes
                                                     : counts.schedulable_nodes;
  int64_t cores = params.include_unschedulable_nodes ? counts.total_cores
                                                     : counts.schedulable_cores;
  return std::max(
      {LadderLookup(cores, params.cores_to_replicas),
       LadderLookup(nodes, params.nodes_to_replicas),
       LadderLookup(counts.pods.value_or(0), params.pods_to_replicas)});
}

int64_t DesiredReplicas(const Params& params, const ClusterCounts& counts) {
  if (const auto* linear = std::get_if<LinearParams>(&params)) {
    return LinearReplicas(*linear, counts);
  }
  return LadderReplicas(std::get<LadderParams>(params), counts);
}

}  // namespace propscaler
