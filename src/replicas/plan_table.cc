#include "replicas/plan_table.h"

#include <algorithm>
#include <variant>

#include "common/quantity.h"

namespace propscaler {
namespace {

bool IsPowerOfTen(int64_t n) {
  while (n >= 10 && n % 10 == 0) n /= 10;
  return n == 1;
}

// Each clamp is found by asking the real arithmetic what the count would be
// without it, so the marks can never disagree with the counts.
PlanBound LinearBoundAt(const LinearParams& params,
                        const ClusterCounts& counts) {
  const int64_t replicas = LinearReplicas(params, counts);
  LinearParams without = params;
  without.prevent_single_point_failure = false;
  if (LinearReplicas(without, counts) < replicas) {
    return PlanBound::kSinglePointFloor;
  }
  without = params;
  without.min = 0;
  if (LinearReplicas(without, counts) < replicas) return PlanBound::kMin;
  without = params;
  without.max = 0;
  if (LinearReplicas(without, counts) > replicas) return PlanBound::kMax;
  return PlanBound::kNone;
}

}  // namespace

const char* PlanBoundName(PlanBound bound) {
  switch (bound) {
    case PlanBound::kMin:
      return "min";
    case PlanBound::kMax:
      return "max";
    case PlanBound::kSinglePointFloor:
      return "preventSinglePointFailure floor";
    case PlanBound::kNone:
      break;
  }
  return "";
}

PlanBound BoundAt(const Params& params, const ClusterCounts& counts) {
  const auto* linear = std::get_if<LinearParams>(&params);
  return linear == nullptr ? PlanBound::kNone : LinearBoundAt(*linear, counts);
}

std::vector<PlanRow> PlanCurve(const Params& params, const PlanRange& range) {
  std::vector<PlanRow> rows;
  rows.reserve(static_cast<size_t>(std::max<int64_t>(range.max_nodes, 0)));
  for (int64_t nodes = 1; nodes <= range.max_nodes; ++nodes) {
    const int64_t cores =
        MilliToUnitsRoundUp(nodes * range.cpu_millis_per_node);
    ClusterCounts counts{nodes, nodes, cores, cores};
    if (range.pods_per_node) counts.pods = nodes * *range.pods_per_node;
    PlanRow row{nodes,
                cores,
                DesiredReplicas(params, counts),
                0,
                BoundAt(params, counts),
                counts.pods.value_or(0)};
    if (!rows.empty()) row.change = row.replicas - rows.back().replicas;
    rows.push_back(row);
  }
  return rows;
}

std::vector<PlanRow> PlanSteps(const std::vector<PlanRow>& curve) {
  std::vector<PlanRow> steps;
  for (size_t i = 0; i < curve.size(); ++i) {
    const bool edge = i == 0 || i + 1 == curve.size();
    const bool changed =
        i > 0 && (curve[i].change != 0 || curve[i].bound != curve[i - 1].bound);
    if (edge || changed || IsPowerOfTen(curve[i].nodes)) {
      steps.push_back(curve[i]);
    }
  }
  return steps;
}

PlanBounds BoundsOf(const Params& params) {
  PlanBounds bounds;
  const auto* linear = std::get_if<LinearParams>(&params);
  if (linear == nullptr) return bounds;
  if (linear->min > 1) bounds.min = linear->min;
  if (linear->max != 0) bounds.max = linear->max;
  if (linear->prevent_single_point_failure) bounds.single_point_floor = 2;
  return bounds;
}

}  // namespace propscaler
