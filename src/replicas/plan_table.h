// What params give over a range of cluster sizes, for `propscaler plan`:
// the replicas at every size from 1 to N nodes of a given CPU (all nodes
// schedulable), which bound of the linear pattern decides each row, and the
// rows worth printing (where the count changes, plus anchors). Pure; uses
// the same arithmetic as the autoscaler.
#ifndef PROPSCALER_REPLICAS_PLAN_TABLE_H_
#define PROPSCALER_REPLICAS_PLAN_TABLE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "replicas/arithmetic.h"
#include "replicas/params.h"

namespace propscaler {

// Which clamp of the linear pattern made the count what it is; ladders and
// unclamped linear counts are kNone.
enum class PlanBound {
  kNone,
  kMin,               // raised to "min"
  kMax,               // capped at "max"
  kSinglePointFloor,  // raised to 2 by preventSinglePointFailure
};

struct PlanRow {
  int64_t nodes = 0;
  int64_t cores = 0;
  int64_t replicas = 0;
  int64_t change = 0;  // replicas minus those at one node fewer; 0 at 1 node
  PlanBound bound = PlanBound::kNone;
  int64_t pods = 0;  // with PlanRange::pods_per_node; else 0

  bool operator==(const PlanRow&) const = default;
};

struct PlanRange {
  int64_t cpu_millis_per_node = 4000;
  int64_t max_nodes = 5000;
  // Pods counted per node, for params that count pods; nullopt: none.
  std::optional<int64_t> pods_per_node;
};

// The clamps a chart marks: the linear pattern's min (when above 1), max
// (when set), and the floor of 2 with preventSinglePointFailure.
struct PlanBounds {
  std::optional<int64_t> min;
  std::optional<int64_t> max;
  std::optional<int64_t> single_point_floor;
};

// "min", "max", "preventSinglePointFailure floor", or "" for kNone.
const char* PlanBoundName(PlanBound bound);

// Which bound decides the count for these counts.
PlanBound BoundAt(const Params& params, const ClusterCounts& counts);

// One row per size, 1..range.max_nodes nodes.
std::vector<PlanRow> PlanCurve(const Params& params, const PlanRange& range);

// The rows a person reads: the first and last, every row whose count or
// bound differs from the row before, and the powers of ten.
std::vector<PlanRow> PlanSteps(const std::vector<PlanRow>& curve);

PlanBounds BoundsOf(const Params& params);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_PLAN_TABLE_H_
