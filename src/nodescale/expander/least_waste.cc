#include "nodescale/expander/least_waste.h"

namespace propscaler::nodescale {
namespace {

double WastedFraction(int64_t per_node, int64_t node_count, int64_t requested) {
  const double available =
      static_cast<double>(per_node) * static_cast<double>(node_count);
  if (available <= 0) return 0;
  return (available - static_cast<double>(requested)) / available;
}

}  // namespace

double WasteScore(const ExpansionOption& option) {
  return WastedFraction(option.allocatable_per_node.cpu_millis,
                        option.node_count, option.requested.cpu_millis) +
         WastedFraction(option.allocatable_per_node.memory_bytes,
                        option.node_count, option.requested.memory_bytes);
}

std::vector<const ExpansionOption*> LeastWasteExpander::BestOptions(
    const std::vector<const ExpansionOption*>& options) {
  std::vector<const ExpansionOption*> best;
  double best_score = 0;
  for (const ExpansionOption* option : options) {
    const double score = WasteScore(*option);
    if (!best.empty() && score > best_score) continue;
    if (best.empty() || score < best_score) {
      best.clear();
      best_score = score;
    }
    best.push_back(option);
  }
  return best;
}

}  // namespace propscaler::nodescale
