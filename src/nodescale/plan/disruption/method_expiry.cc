#include <map>

#include "nodescale/plan/disruption/disruption_method.h"

namespace propscaler::nodescale::disruption {
namespace {

// Expiring these nodes together would take a group below its min size:
// then the oldest expired node of that group alone, replaced by a node
// of its own group (the rest expire in later commands).
std::optional<DisruptionCommand> ExpiryAtMinSize(
    const DisruptionContext& context, const std::vector<Candidate>& expired) {
  std::map<const NodeGroup*, int64_t> taken;
  for (const Candidate& c : expired) ++taken[c.group];
  const Candidate* oldest = nullptr;
  for (const Candidate& c : expired) {
    if (taken[c.group] <= c.group->target_size - c.group->min_size) continue;
    if (oldest == nullptr || c.created < oldest->created) oldest = &c;
  }
  if (oldest == nullptr) return std::nullopt;
  DisruptionCommand command = context.Command(
      DisruptionMethod::kExpiry, DisruptionReason::kExpired, {*oldest});
  command.replacement =
      NewNodes{oldest->group->name, 1, PriceOf(*oldest->group)};
  return command;
}

}  // namespace

std::optional<DisruptionCommand> Expiry::ComputeCommand(
    DisruptionContext& context) const {
  const DisruptionInput& input = context.input();
  std::vector<Candidate> expired;
  for (size_t i = 0; i < context.Nodes().size(); ++i) {
    const NodePool* pool = context.sim().PoolOfNode(i);
    // A node of unknown age (a file without creationTimestamp) never
    // expires.
    if (pool == nullptr || input.life[i].deleting ||
        input.life[i].created == TimePoint()) {
      continue;
    }
    const std::optional<Duration>& after = pool->expire_after;
    if (after && input.now - input.life[i].created >= *after) {
      expired.push_back(context.MakeCandidate(i));
    }
  }
  if (expired.empty()) return std::nullopt;
  if (std::optional<DisruptionCommand> floor =
          ExpiryAtMinSize(context, expired)) {
    return floor;
  }
  std::vector<size_t> nodes;
  double price = 0;
  for (const Candidate& c : expired) {
    nodes.push_back(c.node);
    price += c.price;
  }
  DisruptionCommand command = context.Command(
      DisruptionMethod::kExpiry, DisruptionReason::kExpired, expired);
  const SimulationResult result =
      context.sim().Simulate(nodes, false, kAnyNumberOfNodes);
  if (!result.options.empty()) command.replacement = result.options.front();
  command.savings_per_hour =
      price - (command.replacement ? command.replacement->price_per_hour : 0);
  return command;
}

}  // namespace propscaler::nodescale::disruption
