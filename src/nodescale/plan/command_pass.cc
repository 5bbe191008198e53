#include "nodescale/plan/command_pass.h"

#include <map>

#include "common/utc_time.h"

namespace propscaler::nodescale {
namespace {

using Kind = CommandPass::Kind;

int64_t ReadyIn(const CommandPassInput& in, const std::string& group) {
  const std::map<std::string, int64_t> ready =
      ReadyNodesByGroup(*in.nodes, *in.group_of);
  auto found = ready.find(group);
  return found == ready.end() ? 0 : found->second;
}

CommandPass Pass(Kind kind, const DisruptionCommand& command) {
  CommandPass pass;
  pass.kind = kind;
  pass.command = command;
  return pass;
}

// The command's nodes still there, as one all-or-nothing set.
StartRemoval RemovalOf(const DisruptionCommand& command,
                       const CommandPassInput& in) {
  std::vector<RemovalTarget> targets;
  for (const std::string& name : command.nodes) {
    const LiveNode* node = FindNode(*in.nodes, name);
    if (node == nullptr) continue;
    targets.push_back({name, (*in.group_of)(node->state)});
  }
  return {std::move(targets), /*all_or_nothing=*/true};
}

// A command started: deleted at once, or its replacement launched.
CommandPass Start(const DisruptionCommand& command, const CommandPassInput& in,
                  const NodeScaleSettings& settings) {
  if (!in.may_act) return Pass(Kind::kDropped, command);
  if (!command.replacement) {
    CommandPass pass = Pass(Kind::kRemove, command);
    pass.actions = {RemovalOf(command, in)};
    pass.started = true;
    return pass;
  }
  CommandPass pass = Pass(Kind::kDropped, command);
  pass.started = true;
  const std::string& group = command.replacement->group;
  if (FindGroup(*in.groups, group) == nullptr) return pass;
  pass.kind = Kind::kLaunch;
  pass.actions = {IncreaseSize{group, command.replacement->count}};
  pass.next = AwaitReplacement(command, ReadyIn(in, group),
                               settings.max_node_provision_time, in.now);
  pass.lines = {DescribeCommand(command) + " (waiting for the replacement)"};
  return pass;
}

// The command in flight, replacing: its nodes go once the replacement is
// Ready, or stay when it was not in time.
CommandPass FollowReplacement(const InFlightCommand& in_flight,
                              const CommandPassInput& in) {
  const DisruptionCommand& command = in_flight.command;
  switch (
      NextStep(in_flight, ReadyIn(in, command.replacement->group), in.now)) {
    case CommandStep::kRemove: {
      CommandPass pass = Pass(Kind::kRemove, command);
      pass.actions = {RemovalOf(command, in)};
      return pass;
    }
    case CommandStep::kFail:
      return Pass(Kind::kReplacementLate, command);
    default:
      return {};
  }
}

// The command in flight, validating: checked again once its delay is over.
CommandPass Validate(const InFlightCommand& in_flight,
                     const CommandPassInput& in,
                     const NodeScaleSettings& settings) {
  if (NextStep(in_flight, 0, in.now) == CommandStep::kWait ||
      in.input == nullptr) {
    return {};
  }
  Result<DisruptionCommand> validated = ValidateCommand(
      *in.input, in_flight.command, settings.disruption_options);
  if (validated.ok()) return Start(*validated, in, settings);
  CommandPass pass = Pass(Kind::kRejected, in_flight.command);
  pass.rejected = validated.status().message();
  return pass;
}

// The plan told, and its command proposed: started, or validated later.
CommandPass Propose(const DisruptionPlan& plan, const CommandPassInput& in,
                    const NodeScaleSettings& settings) {
  CommandPass pass;
  if (plan.command) {
    std::optional<InFlightCommand> validating = AwaitValidation(
        *plan.command, settings.disruption_validation_delay, in.now);
    if (validating) {
      pass = Pass(Kind::kValidating, *plan.command);
      pass.validate_due = FormatMicroTime(validating->due);
      pass.lines = {DescribeCommand(*plan.command) + " (validating until " +
                    pass.validate_due + ")"};
      pass.next = std::move(validating);
    } else {
      pass = Start(*plan.command, in, settings);
    }
  } else {
    pass.kind = Kind::kNothingPlanned;
  }
  pass.plan_reported = true;
  pass.blocked = plan.blocked;
  return pass;
}

}  // namespace

CommandPass PlanCommandStep(const CommandPassInput& in,
                            const NodeScaleSettings& settings) {
  const std::optional<InFlightCommand>& in_flight = *in.in_flight;
  if (in_flight && in_flight->stage == InFlightCommand::Stage::kReplacing) {
    return FollowReplacement(*in_flight, in);
  }
  if (in.draining) return {};  // a removal is still under way
  if (!in.pdbs_listed) {
    // Not listed yet (or RBAC refuses them): no disruption without knowing
    // which pods may go.
    CommandPass pass;
    pass.kind = Kind::kWaitForBudgets;
    pass.next = in_flight;
    pass.lines = {
        "waiting for PodDisruptionBudgets to be listed before disrupting"};
    pass.blocked.emplace();
    return pass;
  }
  if (in_flight) return Validate(*in_flight, in, settings);
  if (!*in.plan) return {};
  return Propose(**in.plan, in, settings);
}

void AbsorbCommandStep(const CommandPass& pass,
                       const std::vector<ActionOutcome>& outcomes,
                       TimePoint now, LoopMemory* memory) {
  DisruptionMemory& disruption = memory->disruption;
  if (pass.blocked) disruption.blocked = *pass.blocked;
  if (pass.kind == Kind::kWait) return;
  disruption.command = pass.next;
  disruption.lines = pass.lines;
  if (pass.kind == Kind::kRemove) {
    memory->NoteRemovals(outcomes[0].removal, now);
    return;
  }
  if (pass.kind != Kind::kLaunch || outcomes[0].ok()) return;
  disruption.command.reset();
  disruption.lines.clear();
  if (outcomes[0].ran &&
      IncreaseResultOf(outcomes[0].status) == IncreaseResult::kRefused) {
    memory->backoff.Fail(
        pass.command.replacement->group, now,
        {"cloudProviderError",
         "the replacement's nodes were refused or did not come"});
  }
}

}  // namespace propscaler::nodescale
