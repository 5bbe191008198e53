#include "nodescale/expander/most_pods.h"

namespace propscaler::nodescale {

std::vector<const ExpansionOption*> MostPodsExpander::BestOptions(
    const std::vector<const ExpansionOption*>& options) {
  std::vector<const ExpansionOption*> best;
  for (const ExpansionOption* option : options) {
    if (!best.empty() && option->pod_count < best.front()->pod_count) continue;
    if (!best.empty() && option->pod_count > best.front()->pod_count) {
      best.clear();
    }
    best.push_back(option);
  }
  return best;
}

}  // namespace propscaler::nodescale
