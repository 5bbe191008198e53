#include "nodescale/plan/scale_up/balance.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {
namespace {

bool WithinFivePercent(int64_t a, int64_t b) {
  const int64_t larger = std::max(a, b);
  // |a - b| <= 5% of the larger, in integers: 20 * |a - b| <= larger.
  return 20 * std::llabs(a - b) <= larger;
}

bool SimilarAllocatable(const Resources& a, const Resources& b) {
  if (a.extended.size() != b.extended.size()) return false;
  for (size_t i = 0; i < a.extended.size(); ++i) {
    if (a.extended[i].first != b.extended[i].first ||
        !WithinFivePercent(a.extended[i].second, b.extended[i].second)) {
      return false;
    }
  }
  return WithinFivePercent(a.cpu_millis, b.cpu_millis) &&
         WithinFivePercent(a.memory_bytes, b.memory_bytes) &&
         WithinFivePercent(a.pods, b.pods) &&
         WithinFivePercent(a.ephemeral_storage_bytes,
                           b.ephemeral_storage_bytes);
}

Labels WithoutPlacementLabels(const Labels& labels) {
  static const std::set<std::string, std::less<>> kIgnored = {
      std::string(kHostnameLabel),
      std::string(kNodeGroupLabel),
      "topology.kubernetes.io/zone",
      "topology.kubernetes.io/region",
      "failure-domain.beta.kubernetes.io/zone",
      "failure-domain.beta.kubernetes.io/region",
  };
  Labels out;
  for (const auto& [key, value] : labels) {
    if (!kIgnored.contains(key)) out.emplace(key, value);
  }
  return out;
}

}  // namespace

bool SimilarTemplates(const NodeTemplate& a, const NodeTemplate& b) {
  return SimilarAllocatable(a.allocatable, b.allocatable) &&
         a.taints == b.taints &&
         WithoutPlacementLabels(a.labels) == WithoutPlacementLabels(b.labels);
}

std::vector<int64_t> SplitIncrease(int64_t delta,
                                   const std::vector<GroupSize>& groups) {
  std::vector<int64_t> added(groups.size(), 0);
  for (int64_t n = 0; n < delta; ++n) {
    size_t smallest = groups.size();
    for (size_t i = 0; i < groups.size(); ++i) {
      const int64_t size = groups[i].target_size + added[i];
      if (size >= groups[i].max_size) continue;
      if (smallest == groups.size() ||
          size < groups[smallest].target_size + added[smallest]) {
        smallest = i;
      }
    }
    if (smallest == groups.size()) break;
    ++added[smallest];
  }
  return added;
}

}  // namespace propscaler::nodescale
