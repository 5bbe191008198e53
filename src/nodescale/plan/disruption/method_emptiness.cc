#include <map>

#include "nodescale/plan/disruption/disruption_method.h"

namespace propscaler::nodescale::disruption {

std::vector<Candidate> Emptiness::Candidates(DisruptionContext& context) const {
  return context.EmptinessCandidates();
}

std::optional<DisruptionCommand> Emptiness::ComputeCommand(
    DisruptionContext& context) const {
  std::map<std::string, int64_t> left;
  std::vector<Candidate> taken;
  for (const Candidate& c : Candidates(context)) {
    int64_t& budget = context.Left(&left, *c.pool, DisruptionReason::kEmpty);
    if (budget <= 0) {
      context.BlockByBudget(c, id(), DisruptionReason::kEmpty);
      continue;
    }
    taken.push_back(c);
    if (std::optional<std::string> floor =
            DisruptionContext::BelowMinSize(taken)) {
      taken.pop_back();
      context.Block(c.node, id(), *floor);
      continue;
    }
    --budget;
  }
  if (taken.empty()) return std::nullopt;
  DisruptionCommand command =
      context.Command(id(), DisruptionReason::kEmpty, taken);
  command.needs_validation = true;
  for (const Candidate& c : taken) command.savings_per_hour += c.price;
  return command;
}

}  // namespace propscaler::nodescale::disruption
