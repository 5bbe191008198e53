// The disruption planner: which nodes to delete or replace to make the
// cluster cheaper or current, as Karpenter v1.14 decides it. Methods run in
// order and the first that yields a command acts: expiry (forceful: no
// budget, no opt-out), emptiness, drift, multi-node consolidation (N nodes
// -> at most one strictly cheaper node, binary search over at most 100
// candidates), single-node consolidation (delete, or replace by one
// strictly cheaper node), then the move back to a preferred group for pools
// that opt in. Candidates are sorted by price over disruption cost, highest
// first; pools' budgets bound each method. Pure: the loop validates a
// command after 15 s (ValidateCommand) and executes it.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nodescale/expander/priority.h"
#include "nodescale/plan/disruption_input.h"
#include "nodescale/plan/disruption_simulation.h"

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

DisruptionPlan PlanDisruption(const DisruptionInput& input,
                              const DisruptionOptions& options);

// A command again after the validation delay: every node still a candidate
// of its method, within budgets, and the simulation still gives a command of
// the same shape (a delete still needs no new node; a replacement still the
// same group). Emptiness keeps the nodes still valid. The command to act on,
// or why not: "churn: ...", "budget: ..." or "scheduling: ...".
Result<DisruptionCommand> ValidateCommand(const DisruptionInput& input,
                                          const DisruptionCommand& command,
                                          const DisruptionOptions& options);

// Each group's priority under the priority expander's patterns (groups no
// pattern matches are left out: the lowest).
std::map<std::string, int, std::less<>> GroupPriorities(
    const std::vector<NodeGroup>& groups, const PriorityConfig& priorities);

// Per node of a snapshot read from files: made at its creationTimestamp,
// pods last changed then (files carry no pod events), Ready taken as
// initialized, being removed when it carries ToBeDeletedByClusterAutoscaler.
std::vector<NodeLife> NodeLivesFromSnapshot(const ClusterSnapshot& snapshot);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_H_
