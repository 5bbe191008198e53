#include "nodescale/expander/chain.h"

#include <string>

#include "nodescale/expander/least_waste.h"
#include "nodescale/expander/most_pods.h"
#include "nodescale/expander/price.h"

namespace propscaler::nodescale {
namespace {

Result<std::unique_ptr<Expander>> MakeExpander(std::string_view name,
                                               const PriorityConfig& priorities,
                                               std::mt19937_64* rng) {
  if (name == "random")
    return std::unique_ptr<Expander>(new RandomExpander(rng));
  if (name == "most-pods") {
    return std::unique_ptr<Expander>(new MostPodsExpander());
  }
  if (name == "least-waste") {
    return std::unique_ptr<Expander>(new LeastWasteExpander());
  }
  if (name == "price") return std::unique_ptr<Expander>(new PriceExpander());
  if (name == "priority") {
    return std::unique_ptr<Expander>(new PriorityExpander(priorities));
  }
  return Status::Invalid(
      "expander \"" + std::string(name) +
      "\" is unknown (want random, most-pods, least-waste, price, priority)");
}

}  // namespace

const ExpansionOption* ExpanderChain::Choose(
    const std::vector<const ExpansionOption*>& options) {
  if (options.empty()) return nullptr;
  // Even a lone option goes through the first filter, as in CA: a priority
  // list that matches no group means no scale-up.
  std::vector<const ExpansionOption*> remaining = options;
  for (const std::unique_ptr<Expander>& filter : filters_) {
    remaining = filter->BestOptions(remaining);
    if (remaining.size() <= 1) break;
  }
  if (remaining.empty()) return nullptr;
  return fallback_.BestOptions(remaining).front();
}

bool UsesPriorityExpander(std::string_view spec) {
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    if (spec.substr(start, comma - start) == "priority") return true;
    start = comma + 1;
  }
  return false;
}

Result<std::unique_ptr<ExpanderChain>> MakeExpanderChain(
    std::string_view spec, const PriorityConfig& priorities,
    std::mt19937_64* rng) {
  std::vector<std::unique_ptr<Expander>> filters;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    Result<std::unique_ptr<Expander>> expander =
        MakeExpander(spec.substr(start, comma - start), priorities, rng);
    if (!expander.ok()) {
      return expander.status().WithContext("--expander=" + std::string(spec));
    }
    filters.push_back(std::move(expander).value());
    start = comma + 1;
  }
  return std::make_unique<ExpanderChain>(std::move(filters), rng);
}

}  // namespace propscaler::nodescale
