// Cluster-wide resource limits, as CA's --max-nodes-total, --cores-total
// MIN:MAX and --memory-total MIN:MAX (GiB): a scale-up may not take the
// cluster above the maximums, a scale-down not below the minimums. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_LIMITS_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_LIMITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct ResourceLimits {
  int64_t max_nodes_total = 0;  // 0: no limit
  int64_t min_cores = 0;
  int64_t max_cores = 320000;
  int64_t min_memory_gib = 0;
  int64_t max_memory_gib = 6400000;
  int64_t max_nodes_per_scale_up = 1000;
};

struct MinMax {
  int64_t min = 0;
  int64_t max = 0;
};

// "MIN:MAX" with 0 <= MIN <= MAX; errors name `flag` and the value.
Result<MinMax> ParseMinMax(std::string_view flag, std::string_view text);

// Nodes (registered or still coming) and their allocatable cpu and memory.
struct ClusterTotals {
  int64_t nodes = 0;
  int64_t cpu_millis = 0;
  int64_t memory_bytes = 0;

  void Add(const Resources& node, int64_t count);
};

enum class BindingLimit {
  kNone,
  kMaxNodesTotal,
  kCoresTotal,
  kMemoryTotal,
  kMaxNodesPerScaleUp,
};

struct NodeAllowance {
  int64_t nodes = 0;
  BindingLimit binding = BindingLimit::kNone;  // the limit that set `nodes`
};

// How many nodes of `per_node` allocatable can still be added.
NodeAllowance NodesAllowedByLimits(const ResourceLimits& limits,
                                   const ClusterTotals& totals,
                                   const Resources& per_node);

// Whether removing a node of `node` allocatable keeps the cluster at or
// above the minimum cores and memory.
bool RemovalKeepsMinimums(const ResourceLimits& limits,
                          const ClusterTotals& totals, const Resources& node);

// "limit reached: --cores-total max 64", for unschedulable pod reasons.
std::string DescribeBindingLimit(BindingLimit binding,
                                 const ResourceLimits& limits);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_LIMITS_H_
