// The command queue's contract (nodescale/run/command_queue.h) on its own,
// with a provider that records its calls: a delete goes to the removal
// queue at once as one set; a command that needs validation waits its
// delay; a replacement is launched, followed until that many more of the
// group's nodes are Ready, then its nodes are handed on, or, past
// --max-node-provision-time, dropped with the old nodes kept; a launch the
// provider refuses backs the group off; a process that may not act acts
// on nothing.
#include "nodescale/run/command_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/clock.h"
#include "memcluster/memory_cluster.h"
#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

// Records IncreaseSize; refuses it when told to.
class RecordingProvider : public Provider {
 public:
  Result<std::vector<NodeGroup>> NodeGroups(const SharedNodes&) override {
    return std::vector<NodeGroup>{};
  }
  std::string NodeGroupOf(const NodeState& node) const override {
    return std::string(nodescale::NodeGroupOf(node));
  }
  Status IncreaseSize(const NodeGroup& group, int64_t delta) override {
    increases.emplace_back(group.name, delta);
    return refuse ? Status::Unavailable("quota: injected") : Status::Ok();
  }
  Status DeleteNodes(const NodeGroup&,
                     const std::vector<const NodeState*>&) override {
    return Status::Ok();
  }
  Status DecreaseTargetSize(const NodeGroup&, int64_t,
                            const std::vector<const NodeState*>&) override {
    return Status::Ok();
  }

  std::vector<std::pair<std::string, int64_t>> increases;
  bool refuse = false;
};

class CommandQueueTest : public ::testing::Test {
 protected:
  CommandQueueTest()
      : cluster_(&clock_),
        reporter_(nullptr, &board_, &cluster_.client(), "kube-system"),
        executor_(
            {&cluster_.client(), &cluster_.client(), &cluster_.client()},
            &provider_, [this] { return pods_; }, &reporter_, &clock_,
            [this] { return may_act_; }, seconds(60)),
        queue_(&executor_, &reporter_, seconds(15), minutes(15),
               DisruptionOptions{}) {
    for (const char* name : {"big", "cheap"}) {
      NodeGroup group;
      group.name = name;
      groups_.push_back(group);
    }
    AddNode("big-0", "big");
    AddNode("big-1", "big");
  }

  void AddNode(const std::string& name, const std::string& group,
               bool ready = true) {
    LiveNode node;
    node.state.name = name;
    node.state.ready = ready;
    node.state.labels[std::string(kNodeGroupLabel)] = group;
    nodes_.push_back(node);
  }
  ClusterView View() {
    return {clock_.Now(), &nodes_, &pods_, &groups_, &group_of_};
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
  static std::vector<std::string> Nodes(const CommandQueue::Step& step) {
    std::vector<std::string> out;
    EXPECT_TRUE(step.remove->all_or_nothing);
    for (const RemovalTarget& target : step.remove->targets) {
      out.push_back(target.node + " of " + target.group);
    }
    return out;
  }

  VirtualClock clock_;
  memcluster::MemoryCluster cluster_;
  RecordingProvider provider_;
  NodeScaleStatusBoard board_;
  NodeScaleReporter reporter_;
  bool may_act_ = true;
  ActionExecutor executor_;
  CommandQueue queue_;
  std::vector<NodeGroup> groups_;
  SharedNodes nodes_;
  SharedPods pods_;
  GroupOfNode group_of_ = [](const NodeState& node) {
    return std::string(NodeGroupOf(node));
  };
};

TEST_F(CommandQueueTest, ADeleteIsHandedOnAtOnceAsOneSet) {
  const CommandQueue::Step step =
      queue_.Propose(Command(/*replace=*/false, /*validate=*/false), View());
  ASSERT_TRUE(step.remove.has_value());
  EXPECT_EQ(Nodes(step),
            (std::vector<std::string>{"big-0 of big", "big-1 of big"}));
  EXPECT_FALSE(queue_.InFlight());
  EXPECT_TRUE(provider_.increases.empty());
}

// Validation: nothing happens before the delay is over; the command waits
// in flight, and /status says until when.
TEST_F(CommandQueueTest, ACommandToValidateWaitsItsDelay) {
  const CommandQueue::Step step =
      queue_.Propose(Command(/*replace=*/true, /*validate=*/true), View());
  EXPECT_FALSE(step.remove.has_value());
  EXPECT_TRUE(queue_.InFlight());
  EXPECT_FALSE(queue_.Replacing());
  ASSERT_EQ(queue_.Lines().size(), 1u);
  EXPECT_NE(queue_.Lines()[0].find("(validating until "), std::string::npos)
      << queue_.Lines()[0];
  clock_.Advance(seconds(14));
  EXPECT_FALSE(queue_.Advance(nullptr, View()).remove.has_value());
  EXPECT_TRUE(queue_.InFlight());
  EXPECT_TRUE(provider_.increases.empty());
}

// A replacement: launched once, the old nodes wait until one more node of
// its group is Ready, then both go as one set.
TEST_F(CommandQueueTest, AReplacementIsFollowedUntilReadyThenTheNodesGo) {
  EXPECT_FALSE(queue_.Propose(Command(true, false), View()).remove);
  EXPECT_EQ(provider_.increases,
            (std::vector<std::pair<std::string, int64_t>>{{"cheap", 1}}));
  EXPECT_TRUE(queue_.Replacing());
  EXPECT_EQ(queue_.ReplacedNodes(),
            (std::vector<std::string>{"big-0", "big-1"}));
  AddNode("cheap-0", "cheap", /*ready=*/false);
  clock_.Advance(minutes(1));
  EXPECT_FALSE(queue_.Advance(nullptr, View()).remove);
  EXPECT_TRUE(queue_.Replacing());
  nodes_ = SharedNodes();
  AddNode("big-0", "big");
  AddNode("big-1", "big");
  AddNode("cheap-0", "cheap");
  const CommandQueue::Step step = queue_.Advance(nullptr, View());
  ASSERT_TRUE(step.remove.has_value());
  EXPECT_EQ(Nodes(step),
            (std::vector<std::string>{"big-0 of big", "big-1 of big"}));
  EXPECT_FALSE(queue_.InFlight());
  EXPECT_EQ(provider_.increases.size(), 1u);
}

// A replacement not Ready within --max-node-provision-time: the command is
// dropped and the old nodes stay.
TEST_F(CommandQueueTest, AReplacementNeverReadyKeepsTheOldNodes) {
  queue_.Propose(Command(true, false), View());
  clock_.Advance(minutes(14));
  EXPECT_FALSE(queue_.Advance(nullptr, View()).remove);
  EXPECT_TRUE(queue_.Replacing());
  clock_.Advance(minutes(2));
  EXPECT_FALSE(queue_.Advance(nullptr, View()).remove);
  EXPECT_FALSE(queue_.InFlight());
  EXPECT_TRUE(queue_.ReplacedNodes().empty());
}

TEST_F(CommandQueueTest, ARefusedLaunchBacksTheGroupOff) {
  provider_.refuse = true;
  const CommandQueue::Step step = queue_.Propose(Command(true, false), View());
  EXPECT_EQ(step.failed_group, "cheap");
  EXPECT_FALSE(step.remove.has_value());
  EXPECT_FALSE(queue_.InFlight());
}

TEST_F(CommandQueueTest, AProcessThatMayNotActStartsNothing) {
  may_act_ = false;
  EXPECT_FALSE(queue_.Propose(Command(true, false), View()).remove);
  EXPECT_FALSE(queue_.Propose(Command(false, false), View()).remove);
  EXPECT_TRUE(provider_.increases.empty());
  EXPECT_FALSE(queue_.Replacing());
}

}  // namespace
}  // namespace propscaler::nodescale
