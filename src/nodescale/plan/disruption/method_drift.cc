#include <algorithm>

#include "nodescale/plan/disruption/disruption_method.h"
#include "nodescale/plan/simulation/template_hash.h"

namespace propscaler::nodescale::disruption {

std::optional<DisruptionCommand> Drift::ComputeCommand(
    DisruptionContext& context) const {
  std::vector<Candidate> drifted;
  for (Candidate& c : context.Eligible(id())) {
    if (!DriftOf(context.Nodes()[c.node], *c.group).empty()) {
      drifted.push_back(c);
    }
  }
  context.CountEligible(DisruptionReason::kDrifted, drifted.size());
  std::stable_sort(drifted.begin(), drifted.end(),
                   [](const Candidate& a, const Candidate& b) {
                     if (a.empty != b.empty) return a.empty;
                     return a.created < b.created;
                   });
  for (const Candidate& c : drifted) {
    if (context.Allowed(*c.pool, DisruptionReason::kDrifted) <= 0) {
      context.BlockByBudget(c, id(), DisruptionReason::kDrifted);
      continue;
    }
    const SimulationResult result =
        context.sim().Simulate({c.node}, false, kAnyNumberOfNodes);
    if (!result.ok) {
      context.Block(c.node, id(),
                    "not all pods would schedule: " + result.failure);
      continue;
    }
    DisruptionCommand command =
        context.Command(id(), DisruptionReason::kDrifted, {c});
    if (!result.options.empty()) command.replacement = result.options.front();
    command.savings_per_hour =
        c.price -
        (command.replacement ? command.replacement->price_per_hour : 0);
    return command;
  }
  return std::nullopt;
}

}  // namespace propscaler::nodescale::disruption
