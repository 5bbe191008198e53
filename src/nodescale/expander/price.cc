#include "nodescale/expander/price.h"

namespace propscaler::nodescale {
namespace {

double CostPerPod(const ExpansionOption& option) {
  return static_cast<double>(option.node_count) * *option.price_per_node /
         static_cast<double>(option.pod_count > 0 ? option.pod_count : 1);
}

}  // namespace

std::vector<const ExpansionOption*> PriceExpander::BestOptions(
    const std::vector<const ExpansionOption*>& options) {
  std::vector<const ExpansionOption*> best;
  double best_cost = 0;
  for (const ExpansionOption* option : options) {
    if (!option->price_per_node) continue;
    const double cost = CostPerPod(*option);
    if (!best.empty() && cost > best_cost) continue;
    if (best.empty() || cost < best_cost) {
      best.clear();
      best_cost = cost;
    }
    best.push_back(option);
  }
  return best.empty() ? options : best;
}

}  // namespace propscaler::nodescale
