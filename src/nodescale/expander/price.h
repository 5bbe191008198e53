// The price expander: the options whose new nodes cost least per pod they
// schedule (node_count x price_per_node / pod_count). Options of groups
// without a price are not chosen while a priced one exists; when none has a
// price the set is returned whole for the next expander.
#ifndef PROPSCALER_NODESCALE_EXPANDER_PRICE_H_
#define PROPSCALER_NODESCALE_EXPANDER_PRICE_H_

#include "nodescale/expander/expander.h"

namespace propscaler::nodescale {

class PriceExpander : public Expander {
 public:
  std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) override;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_PRICE_H_
