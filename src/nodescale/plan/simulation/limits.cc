#include "nodescale/plan/simulation/limits.h"

#include <algorithm>
#include <charconv>

namespace propscaler::nodescale {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;
// The largest MIN or MAX of --cores-total and --memory-total: a billion cores
// or GiB, far above any cluster, and small enough that GiB in bytes fits an
// int64.
constexpr int64_t kMaxTotal = 1'000'000'000;

Result<int64_t> ParseCount(std::string_view flag, std::string_view whole,
                           std::string_view part) {
  int64_t value = 0;
  const char* end = part.data() + part.size();
  auto [ptr, ec] = std::from_chars(part.data(), end, value);
  if (part.empty() || ec != std::errc() || ptr != end || value < 0) {
    return Status::Invalid("--" + std::string(flag) + "=" + std::string(whole) +
                           ": \"" + std::string(part) +
                           "\" is not a non-negative integer");
  }
  if (value > kMaxTotal) {
    return Status::Invalid("--" + std::string(flag) + "=" + std::string(whole) +
                           ": \"" + std::string(part) + "\" is above " +
                           std::to_string(kMaxTotal));
  }
  return value;
}

// Whole nodes of `per_node` that fit in `room`; unlimited when per_node is 0.
int64_t NodesWithin(int64_t room, int64_t per_node) {
  if (per_node <= 0) return INT64_MAX;
  return room <= 0 ? 0 : room / per_node;
}

}  // namespace

Result<MinMax> ParseMinMax(std::string_view flag, std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return Status::Invalid("--" + std::string(flag) + "=" + std::string(text) +
                           ": want MIN:MAX");
  }
  Result<int64_t> min = ParseCount(flag, text, text.substr(0, colon));
  if (!min.ok()) return min.status();
  Result<int64_t> max = ParseCount(flag, text, text.substr(colon + 1));
  if (!max.ok()) return max.status();
  if (*min > *max) {
    return Status::Invalid("--" + std::string(flag) + "=" + std::string(text) +
                           ": MIN is above MAX");
  }
  return MinMax{*min, *max};
}

void ClusterTotals::Add(const Resources& node, int64_t count) {
  nodes += count;
  cpu_millis += node.cpu_millis * count;
  memory_bytes += node.memory_bytes * count;
}

NodeAllowance NodesAllowedByLimits(const ResourceLimits& limits,
                                   const ClusterTotals& totals,
                                   const Resources& per_node) {
  NodeAllowance allowance{limits.max_nodes_per_scale_up,
                          BindingLimit::kMaxNodesPerScaleUp};
  auto tighten = [&](int64_t nodes, BindingLimit binding) {
    if (nodes < allowance.nodes) allowance = {nodes, binding};
  };
  if (limits.max_nodes_total > 0) {
    tighten(std::max<int64_t>(0, limits.max_nodes_total - totals.nodes),
            BindingLimit::kMaxNodesTotal);
  }
  tighten(NodesWithin(limits.max_cores * 1000 - totals.cpu_millis,
                      per_node.cpu_millis),
          BindingLimit::kCoresTotal);
  tighten(NodesWithin(limits.max_memory_gib * kGiB - totals.memory_bytes,
                      per_node.memory_bytes),
          BindingLimit::kMemoryTotal);
  return allowance;
}

bool RemovalKeepsMinimums(const ResourceLimits& limits,
                          const ClusterTotals& totals, const Resources& node) {
  return totals.cpu_millis - node.cpu_millis >= limits.min_cores * 1000 &&
         totals.memory_bytes - node.memory_bytes >=
             limits.min_memory_gib * kGiB;
}

std::string DescribeBindingLimit(BindingLimit binding,
                                 const ResourceLimits& limits) {
  switch (binding) {
    case BindingLimit::kMaxNodesTotal:
      return "limit reached: --max-nodes-total=" +
             std::to_string(limits.max_nodes_total);
    case BindingLimit::kCoresTotal:
      return "limit reached: --cores-total max " +
             std::to_string(limits.max_cores);
    case BindingLimit::kMemoryTotal:
      return "limit reached: --memory-total max " +
             std::to_string(limits.max_memory_gib) + "GiB";
    case BindingLimit::kMaxNodesPerScaleUp:
      return "limit reached: --max-nodes-per-scaleup=" +
             std::to_string(limits.max_nodes_per_scale_up);
    case BindingLimit::kNone:
      break;
  }
  return "";
}

}  // namespace propscaler::nodescale
