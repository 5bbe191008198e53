#include "nodescale/plan/disruption/disruption_budget.h"

#include <algorithm>
#include <charconv>

#include "nodescale/plan/disruption/cron_schedule.h"

namespace propscaler::nodescale {

std::string_view DisruptionReasonName(DisruptionReason reason) {
  switch (reason) {
    case DisruptionReason::kEmpty:
      return "Empty";
    case DisruptionReason::kDrifted:
      return "Drifted";
    case DisruptionReason::kUnderutilized:
      return "Underutilized";
    case DisruptionReason::kExpired:
      return "Expired";
  }
  return "";
}

bool BudgetCovers(const DisruptionBudget& budget, DisruptionReason reason) {
  return budget.reasons.empty() ||
         std::find(budget.reasons.begin(), budget.reasons.end(),
                   DisruptionReasonName(reason)) != budget.reasons.end();
}

Result<bool> BudgetActive(const DisruptionBudget& budget, TimePoint now) {
  if (budget.schedule.empty()) return true;
  Result<CronSchedule> schedule = CronSchedule::Parse(budget.schedule);
  if (!schedule.ok()) return schedule.status();
  return schedule->ActiveAt(now, budget.duration);
}

Result<int64_t> BudgetAllows(const DisruptionBudget& budget, int64_t num_nodes,
                             TimePoint now) {
  Result<bool> active = BudgetActive(budget, now);
  if (!active.ok()) return active.status();
  std::string_view nodes = budget.nodes;
  const bool percent = !nodes.empty() && nodes.back() == '%';
  if (percent) nodes.remove_suffix(1);
  int64_t value = 0;
  const auto [end, error] =
      std::from_chars(nodes.data(), nodes.data() + nodes.size(), value);
  if (nodes.empty() || error != std::errc() ||
      end != nodes.data() + nodes.size() || value < 0 ||
      (percent && value > 100)) {
    return Status::Invalid("budget nodes \"" + budget.nodes +
                           "\" is neither a count nor a percentage");
  }
  if (!*active) return kUnlimitedDisruptions;
  if (!percent) return value;
  return (value * num_nodes + 99) / 100;
}

PoolAllowance AllowedDisruptions(const NodePool& pool, DisruptionReason reason,
                                 int64_t num_nodes, int64_t disrupting,
                                 TimePoint now) {
  int64_t least = kUnlimitedDisruptions;
  for (const DisruptionBudget& budget : pool.budgets) {
    Result<int64_t> allows = BudgetAllows(budget, num_nodes, now);
    if (!allows.ok()) {
      return {0, "pool " + pool.name + ": " + allows.status().message()};
    }
    if (BudgetCovers(budget, reason)) least = std::min(least, *allows);
  }
  return {std::max<int64_t>(0, least - disrupting), ""};
}

}  // namespace propscaler::nodescale
