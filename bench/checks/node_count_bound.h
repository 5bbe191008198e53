// How few new nodes a plan could ask for, from its pods alone, and how far
// above that a plan may go before its check fails: a planner that asks for
// 3x the nodes must fail as one that leaves pods out does. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_NODE_COUNT_BOUND_H_
#define PROPSCALER_BENCH_CHECKS_NODE_COUNT_BOUND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::bench {

// A plan may ask for at most kNodeCountMargin times the bound (rounded up)
// and kNodeCountSlack nodes more, and for no fewer than the bound. The bound
// knows requests and anti-affinity but not spreads or affinity, which take
// nodes of their own: today's group plans of the zonal mix ask for up to
// 1.62x it (34 of 21 nodes), and a handful of spread pods for 5 where it
// says 1; every other plan of the benchmarks for at most 1.33x
// (bench/README.md). A planner that asks for 3x the nodes fails.
inline constexpr double kNodeCountMargin = 1.7;
inline constexpr int64_t kNodeCountSlack = 4;

// The fewest nodes `pods` could go on, each node at most `largest` free:
// their total cpu, memory and pod slots over the largest's (rounded up);
// the pods over half of it in cpu, or in memory (no two of either share a
// node); and the most of them that each need a node of their own (one
// hostname anti-affinity term of theirs selecting them all).
int64_t NewNodesLowerBound(const std::vector<const nodescale::PodState*>& pods,
                           const nodescale::Resources& largest);

// What is wrong with a plan of `nodes` new nodes against `bound`: fewer
// than it, or more than the margin allows; nullopt when neither.
std::optional<std::string> NodeCountMiss(int64_t nodes, int64_t bound);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_NODE_COUNT_BOUND_H_
