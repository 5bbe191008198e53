// Disruption commands from their choice to the removal queue, one at a
// time, as Karpenter's orchestration queue runs them: a command that needs
// validation waits out its delay and is checked again against the cluster
// as it is then; a command with a replacement launches it and waits until
// that many more of the group's nodes are Ready (or gives up at
// --max-node-provision-time, the old nodes staying); then its nodes are
// handed back to the loop for the removal queue, as one set (all tainted
// before any pod is evicted). Each step is decided by
// plan/disruption/command_progress; this carries it out: the launch
// (through the executor), Events, metrics, the log.
#ifndef PROPSCALER_NODESCALE_RUN_COMMAND_QUEUE_H_
#define PROPSCALER_NODESCALE_RUN_COMMAND_QUEUE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/disruption/command_progress.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/run/action_executor.h"
#include "nodescale/run/removal_queue.h"

namespace propscaler::nodescale {

class CommandQueue {
 public:
  // What the loop does for the queue after a pass.
  struct Step {
    // The command's nodes for the executor's drain, as one all-or-nothing
    // set: the action that deletes them.
    std::optional<StartRemoval> remove;
    // The replacement could not be launched: back this group off.
    std::string failed_group;
  };

  // The replacement is launched through `executor` (an IncreaseSize).
  CommandQueue(ActionExecutor* executor, const NodeScaleReporter* reporter,
               Duration validation_delay, Duration max_provision_time,
               DisruptionOptions options);

  // A command between its choice and the removal queue.
  bool InFlight() const { return command_.has_value(); }
  // Its replacement launched, not yet Ready.
  bool Replacing() const {
    return command_ && command_->stage == InFlightCommand::Stage::kReplacing;
  }
  // The nodes of a command whose replacement is on its way: being removed.
  std::vector<std::string> ReplacedNodes() const;
  // What waits, for /status and the report.
  const std::vector<std::string>& Lines() const { return lines_; }
  // Says why nothing is planned now (in Lines()).
  void WaitFor(std::string why) { lines_ = {std::move(why)}; }

  // The plan's command (none: nothing waits): started now, or after its
  // validation delay.
  Step Propose(const std::optional<DisruptionCommand>& command,
               const ClusterView& view);
  // The command in flight, one pass: a replacement followed; a command due
  // for validation checked against `input` (never null then) and started.
  Step Advance(const DisruptionInput* input, const ClusterView& view);

 private:
  Step Start(const DisruptionCommand& command, const ClusterView& view);
  Step FollowReplacement(const ClusterView& view);
  static Step Remove(const DisruptionCommand& command, const ClusterView& view);
  void Event(const ClusterView& view, const std::string& node, bool warning,
             const std::string& reason, const std::string& message);

  ActionExecutor* executor_;
  const NodeScaleReporter* reporter_;
  const Duration validation_delay_;
  const Duration max_provision_time_;
  const DisruptionOptions options_;
  std::optional<InFlightCommand> command_;
  std::vector<std::string> lines_;
};

// "multi-node replace a b -> 1 x cheap", for logs and /status.
std::string DescribeCommand(const DisruptionCommand& command);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_COMMAND_QUEUE_H_
