// A chain of expanders, as --expander=priority,least-waste: each narrows the
// set the next one sees; once one option is left it is the answer, and
// whatever is left at the end is settled by the random expander, as in CA.
#ifndef PROPSCALER_NODESCALE_EXPANDER_CHAIN_H_
#define PROPSCALER_NODESCALE_EXPANDER_CHAIN_H_

#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "nodescale/expander/expander.h"
#include "nodescale/expander/priority.h"
#include "nodescale/expander/random.h"

namespace propscaler::nodescale {

class ExpanderChain {
 public:
  // `rng` must outlive the chain.
  ExpanderChain(std::vector<std::unique_ptr<Expander>> filters,
                std::mt19937_64* rng)
      : filters_(std::move(filters)), fallback_(rng) {}

  // The chosen option, or null when none qualifies.
  const ExpansionOption* Choose(
      const std::vector<const ExpansionOption*>& options);

 private:
  std::vector<std::unique_ptr<Expander>> filters_;
  RandomExpander fallback_;
};

// Whether CA's --expander value names the priority expander (so its
// patterns must be read).
bool UsesPriorityExpander(std::string_view spec);

// Builds the chain from CA's --expander value: a comma list of random,
// most-pods, least-waste, price and priority. `priorities` feeds the
// priority expander. Errors name the unknown expander.
Result<std::unique_ptr<ExpanderChain>> MakeExpanderChain(
    std::string_view spec, const PriorityConfig& priorities,
    std::mt19937_64* rng);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_CHAIN_H_
