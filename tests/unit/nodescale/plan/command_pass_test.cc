// Karpenter's disruption command between its choice and the drain
// (plan/command_pass.h), pass by pass with the memory: a delete is handed
// to the drain at once as one set; a command that needs validation waits
// its delay and is checked again; a replacement is launched, followed
// until that many more of the group's nodes are Ready, then its nodes are
// handed on, or, past --max-node-provision-time, dropped with the old
// nodes kept; a launch the provider refuses backs the group off; a process
// that may not act starts nothing; nothing starts while the drain holds
// nodes or before the budgets are listed.
#include "nodescale/plan/command_pass.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using std::chrono::minutes;
using std::chrono::seconds;
using Kind = CommandPass::Kind;

class CommandPassTest : public ::testing::Test {
 protected:
  CommandPassTest() {
    settings_.disruption_validation_delay = seconds(15);
    settings_.max_node_provision_time = minutes(15);
    groups_ = {Group("big", 0, 10, 2, 8000, 32 * kGi),
               Group("cheap", 0, 10, 0, 4000, 16 * kGi)};
    AddNode("big-0", "big");
    AddNode("big-1", "big");
    input_.snapshot = &snapshot_;
  }

  void AddNode(const std::string& name, const std::string& group,
               bool ready = true) {
    std::vector<LiveNode> nodes(nodes_.begin(), nodes_.end());
    nodes.push_back(Live(name, group, ready, now_ - minutes(60)));
    nodes_ = SharedNodes(std::move(nodes));
  }

  static DisruptionCommand Command(bool replace, bool validate) {
    DisruptionCommand command;
    command.method =
        replace ? DisruptionMethod::kMultiNode : DisruptionMethod::kEmptiness;
    command.nodes = {"big-0", "big-1"};
    if (replace) command.replacement = NewNodes{"cheap", 1, 0.1};
    command.needs_validation = validate;
    return command;
  }

  // One pass over the plan `command` (none: no plan), its action with
  // `status`, absorbed into the memory.
  CommandPass Pass(std::optional<DisruptionCommand> command = std::nullopt,
                   const Status& status = Status::Ok()) {
    std::optional<DisruptionPlan> plan;
    if (command) {
      plan.emplace();
      plan->command = std::move(command);
    }
    const CommandPass pass = PlanCommandStep(
        {&memory_.disruption.command, &plan, &input_, draining_, pdbs_listed_,
         may_act_, &nodes_, &group_of_, &groups_, now_},
        settings_);
    std::vector<ActionOutcome> outcomes;
    for (size_t i = 0; i < pass.actions.size(); ++i) {
      outcomes.push_back({true, status});
    }
    AbsorbCommandStep(pass, outcomes, now_, &memory_);
    return pass;
  }

  static std::vector<std::string> Targets(const CommandPass& pass) {
    EXPECT_EQ(pass.actions.size(), 1u);
    const auto* removal = std::get_if<StartRemoval>(&pass.actions[0]);
    EXPECT_NE(removal, nullptr);
    if (removal == nullptr) return {};
    EXPECT_TRUE(removal->all_or_nothing);
    std::vector<std::string> out;
    for (const RemovalTarget& target : removal->targets) {
      out.push_back(target.node + " of " + target.group);
    }
    return out;
  }

  static std::vector<std::pair<std::string, int64_t>> Increases(
      const CommandPass& pass) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const NodeScaleAction& action : pass.actions) {
      if (const auto* increase = std::get_if<IncreaseSize>(&action)) {
        out.emplace_back(increase->group, increase->delta);
      }
    }
    return out;
  }

  bool Replacing() const {
    return memory_.disruption.command && memory_.disruption.command->stage ==
                                             InFlightCommand::Stage::kReplacing;
  }

  NodeScaleSettings settings_;
  LoopMemory memory_{GroupBackoff(minutes(5), minutes(30)),
                     ProvisionTracker(minutes(15)), ScaleDownTimers({}),
                     ProvReqBackoff(minutes(1), minutes(10), 1000)};
  std::vector<NodeGroup> groups_;
  SharedNodes nodes_;
  GroupOfNode group_of_ = [](const NodeState& node) {
    return std::string(NodeGroupOf(node));
  };
  // No candidates: a command validated is rejected.
  ClusterSnapshot snapshot_;
  DisruptionInput input_;
  bool draining_ = false;
  bool pdbs_listed_ = true;
  bool may_act_ = true;
  TimePoint now_ = std::chrono::system_clock::from_time_t(1'800'000'000);
};

TEST_F(CommandPassTest, ADeleteIsHandedOnAtOnceAsOneSet) {
  const CommandPass pass = Pass(Command(/*replace=*/false, /*validate=*/false));
  EXPECT_EQ(pass.kind, Kind::kRemove);
  EXPECT_TRUE(pass.started);
  EXPECT_EQ(Targets(pass),
            (std::vector<std::string>{"big-0 of big", "big-1 of big"}));
  EXPECT_FALSE(memory_.disruption.command.has_value());
  EXPECT_TRUE(memory_.disruption.lines.empty());
}

// Validation: nothing happens before the delay is over; the command waits
// in the memory, and /status says until when. At the delay it is checked
// against the cluster as it is then: its nodes no longer candidates, it is
// rejected and forgotten.
TEST_F(CommandPassTest, ACommandToValidateWaitsItsDelay) {
  CommandPass pass = Pass(Command(/*replace=*/true, /*validate=*/true));
  EXPECT_EQ(pass.kind, Kind::kValidating);
  EXPECT_TRUE(pass.actions.empty());
  EXPECT_FALSE(pass.started);
  ASSERT_TRUE(memory_.disruption.command.has_value());
  EXPECT_FALSE(Replacing());
  ASSERT_EQ(memory_.disruption.lines.size(), 1u);
  EXPECT_NE(memory_.disruption.lines[0].find("(validating until "),
            std::string::npos)
      << memory_.disruption.lines[0];
  now_ += seconds(14);
  pass = Pass(Command(true, true));
  EXPECT_EQ(pass.kind, Kind::kWait) << "one command at a time";
  EXPECT_TRUE(memory_.disruption.command.has_value());
  now_ += seconds(1);
  pass = Pass();
  EXPECT_EQ(pass.kind, Kind::kRejected);
  EXPECT_FALSE(pass.rejected.empty());
  EXPECT_TRUE(pass.actions.empty());
  EXPECT_FALSE(memory_.disruption.command.has_value());
  EXPECT_TRUE(memory_.disruption.lines.empty());
}

// A replacement: launched once, the old nodes wait until one more node of
// its group is Ready (and count as being removed meanwhile), then both go
// as one set.
TEST_F(CommandPassTest, AReplacementIsFollowedUntilReadyThenTheNodesGo) {
  CommandPass pass = Pass(Command(true, false));
  EXPECT_EQ(pass.kind, Kind::kLaunch);
  EXPECT_EQ(Increases(pass),
            (std::vector<std::pair<std::string, int64_t>>{{"cheap", 1}}));
  EXPECT_TRUE(Replacing());
  ASSERT_EQ(memory_.disruption.lines.size(), 1u);
  EXPECT_NE(memory_.disruption.lines[0].find("waiting for the replacement"),
            std::string::npos);
  AddNode("cheap-0", "cheap", /*ready=*/false);
  now_ += minutes(1);
  draining_ = true;  // another removal does not hold up a replacement
  pass = Pass();
  EXPECT_EQ(pass.kind, Kind::kWait);
  EXPECT_TRUE(Replacing());
  nodes_ = SharedNodes();
  AddNode("big-0", "big");
  AddNode("big-1", "big");
  AddNode("cheap-0", "cheap");
  pass = Pass();
  EXPECT_EQ(pass.kind, Kind::kRemove);
  EXPECT_FALSE(pass.started) << "started when it launched";
  EXPECT_EQ(Targets(pass),
            (std::vector<std::string>{"big-0 of big", "big-1 of big"}));
  EXPECT_FALSE(memory_.disruption.command.has_value());
}

// A replacement not Ready within --max-node-provision-time: the command is
// dropped and the old nodes stay.
TEST_F(CommandPassTest, AReplacementNeverReadyKeepsTheOldNodes) {
  Pass(Command(true, false));
  now_ += minutes(14);
  EXPECT_EQ(Pass().kind, Kind::kWait);
  EXPECT_TRUE(Replacing());
  now_ += minutes(2);
  const CommandPass pass = Pass();
  EXPECT_EQ(pass.kind, Kind::kReplacementLate);
  EXPECT_TRUE(pass.actions.empty());
  EXPECT_FALSE(memory_.disruption.command.has_value());
}

TEST_F(CommandPassTest, ARefusedLaunchBacksTheGroupOff) {
  const CommandPass pass =
      Pass(Command(true, false), Status::Unavailable("quota: injected"));
  EXPECT_EQ(pass.kind, Kind::kLaunch);
  EXPECT_FALSE(memory_.disruption.command.has_value());
  EXPECT_TRUE(memory_.disruption.lines.empty());
  EXPECT_TRUE(memory_.backoff.BackedOff("cheap", now_));
  EXPECT_FALSE(memory_.backoff.BackedOff("big", now_));
}

// Another writer changed the group first: the command is dropped, the
// group not backed off.
TEST_F(CommandPassTest, AConflictingLaunchDropsTheCommandWithoutBackoff) {
  Pass(Command(true, false),
       Status(StatusCode::kConflict, "resourceVersion changed"));
  EXPECT_FALSE(memory_.disruption.command.has_value());
  EXPECT_FALSE(memory_.backoff.BackedOff("cheap", now_));
}

TEST_F(CommandPassTest, AProcessThatMayNotActStartsNothing) {
  may_act_ = false;
  EXPECT_EQ(Pass(Command(true, false)).kind, Kind::kDropped);
  EXPECT_EQ(Pass(Command(false, false)).kind, Kind::kDropped);
  EXPECT_FALSE(memory_.disruption.command.has_value());
}

TEST_F(CommandPassTest, AReplacementOfAGroupGoneIsDropped) {
  groups_.pop_back();
  const CommandPass pass = Pass(Command(true, false));
  EXPECT_EQ(pass.kind, Kind::kDropped);
  EXPECT_TRUE(pass.actions.empty());
  EXPECT_FALSE(memory_.disruption.command.has_value());
}

// While the drain holds nodes nothing new is disrupted; before the budgets
// are listed /status says so and no candidate is shown blocked.
TEST_F(CommandPassTest, NothingStartsWhileDrainingOrWithoutBudgets) {
  draining_ = true;
  EXPECT_EQ(Pass(Command(false, false)).kind, Kind::kWait);
  draining_ = false;
  pdbs_listed_ = false;
  memory_.disruption.blocked = {BlockedCandidate{}};
  const CommandPass pass = Pass(Command(false, false));
  EXPECT_EQ(pass.kind, Kind::kWaitForBudgets);
  EXPECT_TRUE(pass.actions.empty());
  EXPECT_TRUE(memory_.disruption.blocked.empty());
  ASSERT_EQ(memory_.disruption.lines.size(), 1u);
  EXPECT_NE(memory_.disruption.lines[0].find("PodDisruptionBudgets"),
            std::string::npos);
}

// A plan without a command clears what /status showed and keeps its
// blocked candidates for it.
TEST_F(CommandPassTest, APlanWithoutACommandIsToldAndClearsTheLines) {
  memory_.disruption.lines = {"stale"};
  std::optional<DisruptionPlan> plan;
  plan.emplace();
  plan->blocked.push_back({"big-0", DisruptionMethod::kEmptiness, "why", ""});
  const CommandPass pass =
      PlanCommandStep({&memory_.disruption.command, &plan, &input_, false, true,
                       true, &nodes_, &group_of_, &groups_, now_},
                      settings_);
  AbsorbCommandStep(pass, {}, now_, &memory_);
  EXPECT_EQ(pass.kind, Kind::kNothingPlanned);
  EXPECT_TRUE(pass.plan_reported);
  EXPECT_TRUE(memory_.disruption.lines.empty());
  ASSERT_EQ(memory_.disruption.blocked.size(), 1u);
  EXPECT_EQ(memory_.disruption.blocked[0].node, "big-0");
}

}  // namespace
}  // namespace propscaler::nodescale
