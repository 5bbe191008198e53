#include <algorithm>
#include <limits>

#include "nodescale/plan/disruption/disruption_method.h"

namespace propscaler::nodescale::disruption {
namespace {

int PriorityOf(const DisruptionInput& input, std::string_view group) {
  auto found = input.group_priority.find(group);
  return found == input.group_priority.end() ? std::numeric_limits<int>::min()
                                             : found->second;
}

}  // namespace

std::optional<DisruptionCommand> BackToPreferred::ComputeCommand(
    DisruptionContext& context) const {
  const DisruptionInput& input = context.input();
  std::vector<Candidate> candidates;
  for (Candidate& c : context.Eligible(id())) {
    if (c.pool->migrate_to_preferred) candidates.push_back(c);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const Candidate& a, const Candidate& b) {
                     const int pa = PriorityOf(input, a.group->name);
                     const int pb = PriorityOf(input, b.group->name);
                     if (pa != pb) return pa < pb;
                     return a.created < b.created;
                   });
  for (const Candidate& c : candidates) {
    const int own = PriorityOf(input, c.group->name);
    const SimulationResult result =
        context.sim().Simulate({c.node}, false, kAnyNumberOfNodes);
    const NewNodes* best = nullptr;
    for (const NewNodes& option : result.options) {
      const int priority = PriorityOf(input, option.group);
      if (priority > own &&
          (best == nullptr || priority > PriorityOf(input, best->group))) {
        best = &option;
      }
    }
    if (best == nullptr) continue;
    if (context.Allowed(*c.pool, DisruptionReason::kDrifted) <= 0) {
      context.BlockByBudget(c, id(), DisruptionReason::kDrifted);
      continue;
    }
    DisruptionCommand command =
        context.Command(id(), DisruptionReason::kDrifted, {c});
    command.replacement = *best;
    command.savings_per_hour = c.price - best->price_per_hour;
    return command;
  }
  return std::nullopt;
}

}  // namespace propscaler::nodescale::disruption
