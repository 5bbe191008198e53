#include "nodescale/plan/disruption/disruption.h"

#include <algorithm>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/disruption/disruption_method.h"

namespace propscaler::nodescale {

std::string_view DisruptionMethodName(DisruptionMethod method) {
  switch (method) {
    case DisruptionMethod::kExpiry:
      return "expiry";
    case DisruptionMethod::kEmptiness:
      return "emptiness";
    case DisruptionMethod::kDrift:
      return "drift";
    case DisruptionMethod::kMultiNode:
      return "multi-node";
    case DisruptionMethod::kSingleNode:
      return "single-node";
    case DisruptionMethod::kPriority:
      return "priority";
  }
  return "";
}

DisruptionPlan PlanDisruption(const DisruptionInput& input,
                              const DisruptionOptions& options,
                              DecisionTimer* timer) {
  DisruptionPlan plan;
  DisruptionContext context(input, options, &plan);
  for (const auto& method : disruption::MethodsInOrder()) {
    if (timer != nullptr) timer->Begin();
    std::optional<DisruptionCommand> command = method->ComputeCommand(context);
    if (timer != nullptr) timer->Evaluated(method->id());
    if (!command) continue;
    if (options.preview) plan.previews.push_back(*command);
    if (!plan.command) plan.command = std::move(command);
    if (!options.preview) break;
  }
  return plan;
}

std::map<std::string, int, std::less<>> GroupPriorities(
    const std::vector<NodeGroup>& groups, const PriorityConfig& priorities) {
  std::map<std::string, int, std::less<>> out;
  for (const NodeGroup& group : groups) {
    if (std::optional<int> p = PriorityOf(priorities, group.name)) {
      out[group.name] = *p;
    }
  }
  return out;
}

std::vector<NodeLife> NodeLivesFromSnapshot(const ClusterSnapshot& snapshot) {
  std::vector<NodeLife> out;
  for (const NodeState& node : snapshot.nodes) {
    NodeLife life;
    life.created = node.created;
    life.last_pod_event = node.created;
    life.deleting = std::any_of(
        node.taints.begin(), node.taints.end(),
        [](const Taint& taint) { return taint.key == kToBeDeletedTaint; });
    out.push_back(life);
  }
  return out;
}

Result<DisruptionCommand> ValidateCommand(const DisruptionInput& input,
                                          const DisruptionCommand& command,
                                          const DisruptionOptions& options) {
  if (!command.needs_validation) return command;
  DisruptionPlan scratch;
  DisruptionContext context(input, options, &scratch);
  std::vector<Candidate> still;
  std::vector<std::string> gone;
  const std::vector<Candidate> now =
      disruption::MethodFor(command.method)->Candidates(context);
  for (const std::string& name : command.nodes) {
    auto found = std::find_if(now.begin(), now.end(), [&](const Candidate& c) {
      return input.snapshot->nodes[c.node].name == name;
    });
    if (found == now.end()) {
      gone.push_back(name);
    } else {
      still.push_back(*found);
    }
  }
  const bool keeps_subset = command.method == DisruptionMethod::kEmptiness;
  if (still.empty() || (!gone.empty() && !keeps_subset)) {
    return Status::Invalid("churn: node " + gone.front() +
                           " is no longer a candidate");
  }
  std::map<std::string, int64_t> left;
  std::vector<Candidate> within;
  for (const Candidate& c : still) {
    if (context.Left(&left, *c.pool, command.reason)-- > 0) {
      within.push_back(c);
    }
  }
  if (within.empty() || (within.size() < still.size() && !keeps_subset)) {
    return Status::Invalid("budget: pool " + still.front().pool->name +
                           " no longer allows disrupting " +
                           std::to_string(still.size()) + " node(s) for " +
                           std::string(DisruptionReasonName(command.reason)));
  }
  DisruptionCommand validated = command;
  validated.nodes.clear();
  validated.savings_per_hour = 0;
  for (const Candidate& c : within) {
    validated.nodes.push_back(input.snapshot->nodes[c.node].name);
    validated.savings_per_hour += c.price;
  }
  if (keeps_subset) return validated;
  std::string why;
  std::optional<DisruptionCommand> again =
      context.Consolidate(within, command.method, &why);
  const bool same_shape =
      again &&
      again->replacement.has_value() == command.replacement.has_value() &&
      (!command.replacement ||
       (again->replacement->group == command.replacement->group &&
        again->replacement->count == command.replacement->count));
  if (!same_shape) {
    return Status::Invalid("scheduling: " +
                           (again ? std::string("the simulation now gives "
                                                "another command")
                                  : why));
  }
  return *again;
}

}  // namespace propscaler::nodescale
