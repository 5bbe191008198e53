// The most-pods expander: the options that schedule the most pending pods.
#ifndef PROPSCALER_NODESCALE_EXPANDER_MOST_PODS_H_
#define PROPSCALER_NODESCALE_EXPANDER_MOST_PODS_H_

#include "nodescale/expander/expander.h"

namespace propscaler::nodescale {

class MostPodsExpander : public Expander {
 public:
  std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) override;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_MOST_PODS_H_
