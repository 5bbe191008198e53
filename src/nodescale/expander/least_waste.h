// The least-waste expander (CA's default): the options leaving the least
// idle cpu and memory on the new nodes, scored as
// (cpu_available - cpu_requested) / cpu_available plus the same for memory,
// where available is node_count x the template's allocatable.
#ifndef PROPSCALER_NODESCALE_EXPANDER_LEAST_WASTE_H_
#define PROPSCALER_NODESCALE_EXPANDER_LEAST_WASTE_H_

#include "nodescale/expander/expander.h"

namespace propscaler::nodescale {

class LeastWasteExpander : public Expander {
 public:
  std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) override;
};

double WasteScore(const ExpansionOption& option);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_LEAST_WASTE_H_
