// Expanders choose which node group grows when several could take the
// pending pods, as Cluster Autoscaler's --expander does. Each expander
// narrows a set of options to its best ones (ties stay); a chain applies
// them in order and settles what is left at random. Pure: randomness comes
// from an injected generator.
#ifndef PROPSCALER_NODESCALE_EXPANDER_EXPANDER_H_
#define PROPSCALER_NODESCALE_EXPANDER_EXPANDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kube/model/resources.h"

namespace propscaler::nodescale {

// Growing one group by node_count nodes to take pod_count pending pods.
struct ExpansionOption {
  std::string group;
  int64_t node_count = 0;
  int64_t pod_count = 0;
  kube::Resources requested;             // sum of the pods' requests
  kube::Resources allocatable_per_node;  // of the group's template
  std::optional<double> price_per_node;
};

class Expander {
 public:
  virtual ~Expander() = default;
  // The best of `options`; empty when none qualifies (e.g. no priority
  // matches). Never called with an empty set.
  virtual std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) = 0;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_EXPANDER_H_
