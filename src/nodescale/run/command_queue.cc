#include "nodescale/run/command_queue.h"

#include <glog/logging.h>

#include "common/utc_time.h"

namespace propscaler::nodescale {
namespace {

int64_t ReadyIn(const ClusterView& view, const std::string& group) {
  const std::map<std::string, int64_t> ready =
      ReadyNodesByGroup(*view.nodes, *view.group_of);
  auto found = ready.find(group);
  return found == ready.end() ? 0 : found->second;
}

}  // namespace

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

CommandQueue::CommandQueue(ActionExecutor* executor,
                           const NodeScaleReporter* reporter,
                           Duration validation_delay,
                           Duration max_provision_time,
                           DisruptionOptions options)
    : executor_(executor),
      reporter_(reporter),
      validation_delay_(validation_delay),
      max_provision_time_(max_provision_time),
      options_(std::move(options)) {}

std::vector<std::string> CommandQueue::ReplacedNodes() const {
  return Replacing() ? command_->command.nodes : std::vector<std::string>{};
}

CommandQueue::Step CommandQueue::Propose(
    const std::optional<DisruptionCommand>& command, const ClusterView& view) {
  lines_.clear();
  if (!command) return {};
  command_ = AwaitValidation(*command, validation_delay_, view.now);
  if (!command_) return Start(*command, view);
  const std::string due = FormatMicroTime(command_->due);
  lines_ = {DescribeCommand(*command) + " (validating until " + due + ")"};
  LOG(INFO) << "disruption: " << DescribeCommand(*command)
            << " proposed; checked again at " << due;
  return {};
}

CommandQueue::Step CommandQueue::Advance(const DisruptionInput* input,
                                         const ClusterView& view) {
  if (!command_) return {};
  if (Replacing()) return FollowReplacement(view);
  if (NextStep(*command_, 0, view.now) == CommandStep::kWait) return {};
  const DisruptionCommand command = command_->command;
  command_.reset();
  lines_.clear();
  Result<DisruptionCommand> validated =
      ValidateCommand(*input, command, options_);
  if (validated.ok()) return Start(*validated, view);
  LOG(INFO) << "disruption: " << DescribeCommand(command)
            << " rejected: " << validated.status().message();
  reporter_->ValidationFailed(command.method);
  for (const std::string& name : command.nodes) {
    Event(view, name, false, "ConsolidationRejected",
          validated.status().message());
  }
  return {};
}

CommandQueue::Step CommandQueue::Start(const DisruptionCommand& command,
                                       const ClusterView& view) {
  if (!executor_->MayAct()) return {};
  LOG(INFO) << "disruption: starting " << DescribeCommand(command) << " (saves "
            << command.savings_per_hour << "/h)";
  reporter_->DisruptionStarted(command);
  if (!command.replacement) {
    lines_.clear();
    return Remove(command, view);
  }
  const NodeGroup* group = FindGroup(*view.groups, command.replacement->group);
  if (group == nullptr) return {};
  const ActionOutcome launched = executor_->Run(
      IncreaseSize{group->name, command.replacement->count}, view);
  if (!launched.ok()) {
    reporter_->DisruptionFailed(command);
    LOG(WARNING) << "disruption: launching the replacement failed: "
                 << launched.status.message();
    lines_.clear();
    return {.failed_group = group->name};
  }
  command_ = AwaitReplacement(command, ReadyIn(view, group->name),
                              max_provision_time_, view.now);
  lines_ = {DescribeCommand(command) + " (waiting for the replacement)"};
  for (const std::string& name : command.nodes) {
    Event(view, name, false, "DisruptionLaunching",
          "launching " + std::to_string(command.replacement->count) +
              " node(s) of group " + group->name + " to replace it (" +
              std::string(DisruptionMethodName(command.method)) + ")");
  }
  return {};
}

CommandQueue::Step CommandQueue::FollowReplacement(const ClusterView& view) {
  const std::string group = command_->command.replacement->group;
  const CommandStep step = NextStep(*command_, ReadyIn(view, group), view.now);
  if (step == CommandStep::kWait) return {};
  const DisruptionCommand command = command_->command;
  command_.reset();
  lines_.clear();
  if (step == CommandStep::kRemove) return Remove(command, view);
  reporter_->DisruptionFailed(command);
  LOG(WARNING) << "disruption: " << DescribeCommand(command)
               << " failed: the replacement was not Ready within "
                  "--max-node-provision-time; the old nodes stay";
  for (const std::string& name : command.nodes) {
    Event(view, name, true, "DisruptionFailed",
          "its replacement in group " + group +
              " did not become Ready; the node stays");
  }
  return {};
}

CommandQueue::Step CommandQueue::Remove(const DisruptionCommand& command,
                                        const ClusterView& view) {
  std::vector<RemovalTarget> targets;
  for (const std::string& name : command.nodes) {
    const LiveNode* node = FindNode(*view.nodes, name);
    if (node == nullptr) continue;
    targets.push_back({name, (*view.group_of)(node->state)});
  }
  return {.remove = StartRemoval{std::move(targets), /*all_or_nothing=*/true}};
}

void CommandQueue::Event(const ClusterView& view, const std::string& node,
                         bool warning, const std::string& reason,
                         const std::string& message) {
  const LiveNode* live = FindNode(*view.nodes, node);
  if (live == nullptr) return;
  reporter_->NodeEvent(live->state.name, warning, reason, message);
}

}  // namespace propscaler::nodescale
