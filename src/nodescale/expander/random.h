// The random expander: one option, uniformly, from the injected generator.
#ifndef PROPSCALER_NODESCALE_EXPANDER_RANDOM_H_
#define PROPSCALER_NODESCALE_EXPANDER_RANDOM_H_

#include <random>

#include "nodescale/expander/expander.h"

namespace propscaler::nodescale {

class RandomExpander : public Expander {
 public:
  // `rng` must outlive the expander.
  explicit RandomExpander(std::mt19937_64* rng) : rng_(rng) {}
  std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) override;

 private:
  std::mt19937_64* rng_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_RANDOM_H_
