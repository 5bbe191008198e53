#include "nodescale/plan/disruption/disruption_method.h"

namespace propscaler::nodescale::disruption {

std::vector<std::unique_ptr<const Method>> MethodsInOrder() {
  std::vector<std::unique_ptr<const Method>> methods;
  methods.push_back(std::make_unique<Expiry>());
  methods.push_back(std::make_unique<Emptiness>());
  methods.push_back(std::make_unique<Drift>());
  methods.push_back(std::make_unique<MultiNodeConsolidation>());
  methods.push_back(std::make_unique<SingleNodeConsolidation>());
  methods.push_back(std::make_unique<BackToPreferred>());
  return methods;
}

std::unique_ptr<const Method> MethodFor(DisruptionMethod id) {
  for (std::unique_ptr<const Method>& method : MethodsInOrder()) {
    if (method->id() == id) return std::move(method);
  }
  return nullptr;
}

}  // namespace propscaler::nodescale::disruption
