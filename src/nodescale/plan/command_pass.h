// Karpenter's disruption command from its choice to the drain, one pass an
// iteration, as its orchestration queue runs one: a command that needs
// validation waits out its delay and is checked again against the cluster
// as it is then; a command with a replacement launches it (an IncreaseSize)
// and waits until that many more of the group's nodes are Ready, or gives
// up at --max-node-provision-time, the old nodes staying; then its nodes
// go to the drain as one all-or-nothing set (a StartRemoval: all tainted
// before any pod is evicted). Nothing is disrupted while the drain holds
// nodes or before the PodDisruptionBudgets are listed. The command in
// flight is the memory's (DisruptionMemory::command); PlanCommandStep says
// what this pass does and what the memory becomes, AbsorbCommandStep makes
// it so once the step's action came to something. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_COMMAND_PASS_H_
#define PROPSCALER_NODESCALE_PLAN_COMMAND_PASS_H_

#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/disruption/command_progress.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/node_scale_settings.h"

namespace propscaler::nodescale {

struct CommandPassInput {
  const std::optional<InFlightCommand>* in_flight = nullptr;
  // The plan, made while no command is in flight (else nullopt), and its
  // input (null while the drain holds nodes or the budgets are unlisted).
  const std::optional<DisruptionPlan>* plan = nullptr;
  const DisruptionInput* input = nullptr;
  bool draining = false;     // the drain holds nodes, or is handed some now
  bool pdbs_listed = false;  // the PodDisruptionBudgets are known
  bool may_act = false;
  const SharedNodes* nodes = nullptr;  // as decided on
  const GroupOfNode* group_of = nullptr;
  const std::vector<NodeGroup>* groups = nullptr;
  TimePoint now;
};

struct CommandPass {
  enum class Kind {
    kWait,             // nothing changes this pass
    kWaitForBudgets,   // the budgets are not listed: nothing is disrupted
    kNothingPlanned,   // the plan chose no command
    kValidating,       // the plan's command waits out its validation delay
    kRejected,         // the command validated is no longer worth it
    kDropped,          // may not act, or its replacement's group is gone
    kLaunch,           // its replacement asked for (the IncreaseSize)
    kRemove,           // its nodes handed to the drain (the StartRemoval)
    kReplacementLate,  // not Ready within --max-node-provision-time
  };
  Kind kind = Kind::kWait;
  // The command this pass is about (where there is one).
  DisruptionCommand command;
  // The step's one action, for kLaunch and kRemove.
  std::vector<NodeScaleAction> actions;
  // The memory after the pass (on kLaunch: once the launch was asked for).
  std::optional<InFlightCommand> next;
  std::vector<std::string> lines;
  // The candidates blocked, when they change.
  std::optional<std::vector<BlockedCandidate>> blocked;
  bool started = false;        // the command starts (may act; validated)
  bool plan_reported = false;  // the plan is told (allowances, blocked)
  std::string rejected;        // kRejected: why
  std::string validate_due;    // kValidating: until when, for the log
};

CommandPass PlanCommandStep(const CommandPassInput& input,
                            const NodeScaleSettings& settings);

// The memory told what came of the pass's step, when it ran: `outcomes`
// one per action. A refused launch backs the group off.
void AbsorbCommandStep(const CommandPass& pass,
                       const std::vector<ActionOutcome>& outcomes,
                       TimePoint now, LoopMemory* memory);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_COMMAND_PASS_H_
