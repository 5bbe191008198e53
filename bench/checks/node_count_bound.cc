#include "checks/node_count_bound.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "checks/final_placement.h"

namespace propscaler::bench {
namespace {

using nodescale::PodAffinityTerm;
using nodescale::PodState;

int64_t CeilDiv(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

// The most of `pods` that one hostname anti-affinity term keeps apart.
int64_t MostKeptApart(const std::vector<const PodState*>& pods) {
  int64_t most = 0;
  std::set<std::string> seen;
  for (const PodState* owner : pods) {
    for (const PodAffinityTerm& t : *owner->anti_affinity) {
      if (t.topology_key != nodescale::kHostnameLabel) continue;
      const std::string id = t.selector.ToString() + "|" + owner->namespace_;
      if (!seen.insert(id).second) continue;
      int64_t apart = 0;
      for (const PodState* pod : pods) {
        const bool owns =
            std::find(pod->anti_affinity->begin(), pod->anti_affinity->end(),
                      t) != pod->anti_affinity->end();
        if (owns && TermSelects(t.selector, t.namespaces, *pod, *owner)) {
          ++apart;
        }
      }
      most = std::max(most, apart);
    }
  }
  return most;
}

// The pods over half the node in cpu, or those in memory (whichever are
// more): no two of them share one.
int64_t OverHalf(const std::vector<const PodState*>& pods,
                 const nodescale::Resources& largest) {
  int64_t cpu = 0;
  int64_t memory = 0;
  for (const PodState* pod : pods) {
    cpu += 2 * pod->requests.cpu_millis > largest.cpu_millis;
    memory += 2 * pod->requests.memory_bytes > largest.memory_bytes;
  }
  return std::max(cpu, memory);
}

}  // namespace

int64_t NewNodesLowerBound(const std::vector<const PodState*>& pods,
                           const nodescale::Resources& largest) {
  nodescale::Resources total;
  for (const PodState* pod : pods) total += pod->requests;
  return std::max({MostKeptApart(pods), OverHalf(pods, largest),
                   CeilDiv(total.cpu_millis, largest.cpu_millis),
                   CeilDiv(total.memory_bytes, largest.memory_bytes),
                   CeilDiv(total.pods, largest.pods)});
}

std::optional<std::string> NodeCountMiss(int64_t nodes, int64_t bound) {
  const int64_t most = static_cast<int64_t>(std::ceil(
                           kNodeCountMargin * static_cast<double>(bound))) +
                       kNodeCountSlack;
  if (nodes < bound) {
    return std::to_string(nodes) + " new nodes, fewer than the lower bound " +
           std::to_string(bound);
  }
  if (nodes > most) {
    char margin[16];
    std::snprintf(margin, sizeof margin, "%g", kNodeCountMargin);
    return std::to_string(nodes) + " new nodes, more than " + margin +
           "x the lower bound " + std::to_string(bound) + " and " +
           std::to_string(kNodeCountSlack) + " (at most " +
           std::to_string(most) + ")";
  }
  return std::nullopt;
}

}  // namespace propscaler::bench
