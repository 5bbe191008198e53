// Multi-node and single-node consolidation: the same candidates and the
// same delete-or-replace decision (DisruptionContext::Consolidate), over a
// prefix of the candidates or one at a time.
#include <map>

#include "nodescale/plan/disruption/disruption_method.h"

namespace propscaler::nodescale::disruption {
namespace {

// Sorted by savings, then taken round-robin across pools so that no pool
// waits behind another's long list.
std::vector<Candidate> InterleavePools(const std::vector<Candidate>& sorted) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<Candidate>> by_pool;
  for (const Candidate& c : sorted) {
    if (!by_pool.contains(c.pool->name)) order.push_back(c.pool->name);
    by_pool[c.pool->name].push_back(c);
  }
  std::vector<Candidate> out;
  for (size_t round = 0; out.size() < sorted.size(); ++round) {
    for (const std::string& pool : order) {
      if (round < by_pool[pool].size()) out.push_back(by_pool[pool][round]);
    }
  }
  return out;
}

}  // namespace

std::vector<Candidate> MultiNodeConsolidation::Candidates(
    DisruptionContext& context) const {
  return context.ConsolidationCandidates();
}

std::optional<DisruptionCommand> MultiNodeConsolidation::ComputeCommand(
    DisruptionContext& context) const {
  std::vector<Candidate> candidates;
  std::map<std::string, int64_t> left;
  for (const Candidate& c : Candidates(context)) {
    int64_t& budget =
        context.Left(&left, *c.pool, DisruptionReason::kUnderutilized);
    if (budget <= 0) continue;
    --budget;
    candidates.push_back(c);
  }
  if (candidates.size() < 2) return std::nullopt;
  const size_t max =
      std::min(candidates.size(), context.options().max_multi_node_candidates);
  size_t lo = 1;
  size_t hi = candidates.size() <= max ? candidates.size() - 1 : max;
  std::optional<DisruptionCommand> best;
  while (lo <= hi) {
    const size_t mid = (lo + hi) / 2;
    const std::vector<Candidate> prefix(candidates.begin(),
                                        candidates.begin() + mid + 1);
    std::string why;
    if (std::optional<DisruptionCommand> command =
            context.Consolidate(prefix, id(), &why)) {
      best = std::move(command);
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

std::vector<Candidate> SingleNodeConsolidation::Candidates(
    DisruptionContext& context) const {
  return context.ConsolidationCandidates();
}

std::optional<DisruptionCommand> SingleNodeConsolidation::ComputeCommand(
    DisruptionContext& context) const {
  for (const Candidate& c : InterleavePools(Candidates(context))) {
    if (context.Allowed(*c.pool, DisruptionReason::kUnderutilized) <= 0) {
      context.BlockByBudget(c, id(), DisruptionReason::kUnderutilized);
      continue;
    }
    std::string why;
    if (std::optional<DisruptionCommand> command =
            context.Consolidate({c}, id(), &why)) {
      return command;
    }
    context.Block(c.node, id(), why);
  }
  return std::nullopt;
}

}  // namespace propscaler::nodescale::disruption
