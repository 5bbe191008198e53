// Disruption budgets, as Karpenter's NodePool applies them: how many of a
// pool's nodes may be disrupted now for a reason. A budget applies to the
// reasons it lists (all when it lists none) while its cron schedule's last
// hit (UTC) is within its duration; a count is taken as is, a percentage of
// the pool's nodes is rounded up. The most restrictive applying budget wins;
// none applying allows any number. One invalid budget (a cron that does not
// parse) allows nothing for every reason: budgets fail closed. Nodes already
// being disrupted (deleting, or not Ready) use up the allowance. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_BUDGET_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_BUDGET_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// Karpenter's disruption reasons, which budgets name, and expiry, which no
// budget holds back.
enum class DisruptionReason { kEmpty, kDrifted, kUnderutilized, kExpired };
std::string_view DisruptionReasonName(DisruptionReason reason);

// What an inactive budget, or a pool without one for the reason, allows.
inline constexpr int64_t kUnlimitedDisruptions =
    std::numeric_limits<int32_t>::max();

bool BudgetCovers(const DisruptionBudget& budget, DisruptionReason reason);

// Whether the budget's schedule is active at `now` (always, without one).
Result<bool> BudgetActive(const DisruptionBudget& budget, TimePoint now);

// The nodes one budget allows out of `num_nodes`: kUnlimitedDisruptions
// while inactive.
Result<int64_t> BudgetAllows(const DisruptionBudget& budget, int64_t num_nodes,
                             TimePoint now);

struct PoolAllowance {
  int64_t allowed = 0;
  std::string error;  // why every budget of the pool allows nothing
};

// max(0, the most restrictive applying budget - `disrupting`); 0 with the
// error when any budget of the pool is invalid.
PoolAllowance AllowedDisruptions(const NodePool& pool, DisruptionReason reason,
                                 int64_t num_nodes, int64_t disrupting,
                                 TimePoint now);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_BUDGET_H_
