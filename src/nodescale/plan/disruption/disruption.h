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
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nodescale/expander/priority.h"
#include "nodescale/plan/disruption/decision_timer.h"
#include "nodescale/plan/disruption/disruption_command.h"
#include "nodescale/plan/disruption/disruption_input.h"

namespace propscaler::nodescale {

// `timer`, where set, is told where each method's evaluation begins and
// ends.
DisruptionPlan PlanDisruption(const DisruptionInput& input,
                              const DisruptionOptions& options,
                              DecisionTimer* timer = nullptr);

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

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_H_
