// A disruption command's life after it is chosen, as one object: a
// consolidation waits out its validation delay and is checked again; a
// command with a replacement launches it and waits until that many more of
// the group's nodes are Ready (or gives up at --max-node-provision-time);
// then its nodes go to the removal queue (taint, drain, delete, roll back).
// Pure: each step is decided from the command, what is Ready and the time.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_COMMAND_PROGRESS_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_COMMAND_PROGRESS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "common/clock.h"
#include "nodescale/plan/disruption/disruption.h"

namespace propscaler::nodescale {

struct InFlightCommand {
  enum class Stage {
    kValidating,  // waits until `due`, then is checked again
    kReplacing,   // its replacement launched; `due` is the deadline
  };
  DisruptionCommand command;
  Stage stage = Stage::kValidating;
  TimePoint due;
  int64_t ready_before = 0;  // Ready nodes of the replacement's group at launch
};

enum class CommandStep {
  kWait,      // nothing yet
  kValidate,  // check it against the cluster as it is now, then start it
  kRemove,    // its replacement is Ready: remove the old nodes
  kFail,      // the replacement was not Ready in time: the old nodes stay
};

// A chosen command: waiting for validation when it needs it (until
// now + `validation_delay`), else nullopt (start it at once).
std::optional<InFlightCommand> AwaitValidation(const DisruptionCommand& command,
                                               Duration validation_delay,
                                               TimePoint now);
// A command whose replacement was just launched.
InFlightCommand AwaitReplacement(const DisruptionCommand& command,
                                 int64_t ready_before,
                                 Duration max_provision_time, TimePoint now);

// `ready_now`: the Ready nodes of the replacement's group (ignored while
// validating).
CommandStep NextStep(const InFlightCommand& in_flight, int64_t ready_now,
                     TimePoint now);

// "multi-node replace a b -> 1 x cheap", for logs and /status.
std::string DescribeCommand(const DisruptionCommand& command);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_COMMAND_PROGRESS_H_
