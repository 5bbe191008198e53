// What a disruption plan is made of: the methods, the command the first
// method that yields one acts on, the nodes held back and why, and the
// pools' budgets as counted. Plain data.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_COMMAND_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_COMMAND_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nodescale/plan/disruption/disruption_budget.h"
#include "nodescale/plan/disruption/disruption_simulation.h"

namespace propscaler::nodescale {

enum class DisruptionMethod {
  kExpiry,
  kEmptiness,
  kDrift,
  kMultiNode,
  kSingleNode,
  kPriority,
};
std::string_view DisruptionMethodName(DisruptionMethod method);

struct DisruptionCommand {
  DisruptionMethod method = DisruptionMethod::kEmptiness;
  DisruptionReason reason = DisruptionReason::kEmpty;
  std::vector<std::string> nodes;
  std::optional<NewNodes> replacement;  // nullopt: delete only
  double savings_per_hour = 0;          // may be negative (drift, expiry)
  // Consolidation waits 15 s and checks again before acting; drift and
  // expiry do not.
  bool needs_validation = false;

  std::string_view action() const { return replacement ? "replace" : "delete"; }
};

// A node some method would take but may not, and why (a PDB, do-not-
// disrupt, a budget, consolidateAfter, not cheaper, pods with no place).
struct BlockedCandidate {
  std::string node;
  DisruptionMethod method = DisruptionMethod::kEmptiness;
  std::string reason;
  std::string pod;  // namespace/name when a pod holds the node back
};

struct PoolAllowanceReport {
  std::string pool;
  DisruptionReason reason = DisruptionReason::kEmpty;
  int64_t nodes = 0;  // counted for the budget
  int64_t allowed = 0;
  std::string error;
};

struct DisruptionPlan {
  // The command of the first method that yields one.
  std::optional<DisruptionCommand> command;
  // With DisruptionOptions::preview: the first command of every method.
  std::vector<DisruptionCommand> previews;
  std::vector<BlockedCandidate> blocked;
  std::vector<PoolAllowanceReport> allowances;
  std::map<DisruptionReason, int64_t> eligible;  // candidates per reason
};

struct DisruptionOptions {
  bool preview = false;  // run every method, not just to the first command
  size_t max_multi_node_candidates = 100;
  // Karpenter's SpotToSpotConsolidation gate (default off): replace spot
  // nodes by a spot node.
  bool spot_to_spot = false;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_COMMAND_H_
