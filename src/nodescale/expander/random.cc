#include "nodescale/expander/random.h"

namespace propscaler::nodescale {

std::vector<const ExpansionOption*> RandomExpander::BestOptions(
    const std::vector<const ExpansionOption*>& options) {
  if (options.empty()) return {};
  // Modulo rather than a std distribution: the same seed picks the same
  // option with every standard library.
  return {options[(*rng_)() % options.size()]};
}

}  // namespace propscaler::nodescale
