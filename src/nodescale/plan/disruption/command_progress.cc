#include "nodescale/plan/disruption/command_progress.h"

namespace propscaler::nodescale {

std::string DescribeCommand(const DisruptionCommand& command) {
  std::string out = std::string(DisruptionMethodName(command.method)) + " " +
                    std::string(command.action());
  for (const std::string& node : command.nodes) out += " " + node;
  if (command.replacement) {
    out += " -> " + std::to_string(command.replacement->count) + " x " +
           command.replacement->group;
  }
  return out;
}

std::optional<InFlightCommand> AwaitValidation(const DisruptionCommand& command,
                                               Duration validation_delay,
                                               TimePoint now) {
  if (!command.needs_validation) return std::nullopt;
  return InFlightCommand{command, InFlightCommand::Stage::kValidating,
                         now + validation_delay, 0};
}

InFlightCommand AwaitReplacement(const DisruptionCommand& command,
                                 int64_t ready_before,
                                 Duration max_provision_time, TimePoint now) {
  return {command, InFlightCommand::Stage::kReplacing, now + max_provision_time,
          ready_before};
}

CommandStep NextStep(const InFlightCommand& in_flight, int64_t ready_now,
                     TimePoint now) {
  if (in_flight.stage == InFlightCommand::Stage::kValidating) {
    return now < in_flight.due ? CommandStep::kWait : CommandStep::kValidate;
  }
  const int64_t wanted =
      in_flight.command.replacement ? in_flight.command.replacement->count : 0;
  if (ready_now >= in_flight.ready_before + wanted) return CommandStep::kRemove;
  return now < in_flight.due ? CommandStep::kWait : CommandStep::kFail;
}

}  // namespace propscaler::nodescale
