#include <gtest/gtest.h>

#include <string>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/health/live_snapshot.h"

namespace propscaler::nodescale {
namespace {

LiveNode Node(const std::string& name, bool ready = true) {
  LiveNode node;
  node.state.name = name;
  node.state.ready = ready;
  node.state.labels = {{"zone", "a"}};
  return node;
}

class LiveSnapshotTest : public ::testing::Test {
 protected:
  ClusterSnapshot Build() {
    std::vector<Readiness> readiness;
    for (const LiveNode& node : nodes_) {
      readiness.push_back(ReadinessOf(node.state, now_, {}));
    }
    return BuildLiveSnapshot(nodes_, pods_, group_of_, readiness, now_, {},
                             &cache_);
  }

  SharedNodes nodes_{Node("n1"), Node("n2"), Node("coming", false)};
  SharedPods pods_;
  std::string group_ = "small";
  GroupOfNode group_of_ = [this](const NodeState&) { return group_; };
  SnapshotNodeCache cache_;
  TimePoint now_;  // every node created at the epoch
};

// The provider's group is in the snapshot's column; the node copy is the
// node as listed (no label of propscaler's stamped on it).
TEST_F(LiveSnapshotTest, NodesOfAGroupAreInTheGroupColumnNotReadyOnesLeftOut) {
  ClusterSnapshot snapshot = Build();
  ASSERT_EQ(snapshot.nodes.size(), 2u);
  EXPECT_EQ(snapshot.nodes[1].name, "n2");
  EXPECT_EQ(snapshot.GroupOf(1), "small");
  EXPECT_EQ(snapshot.nodes[1].labels, (Labels{{"zone", "a"}}));
}

// Not Ready past --max-node-startup-time (15 minutes after its creation):
// Unready, no longer coming, so kept in the snapshot (where it takes no
// pod); the cached copies are not reused across that change.
TEST_F(LiveSnapshotTest, AnUnreadyNodeIsKeptAndTheCacheSeesTheChange) {
  ClusterSnapshot first = Build();
  ASSERT_EQ(first.nodes.size(), 2u);
  ReturnNodes(&first, &cache_);
  now_ += std::chrono::minutes(15);
  ClusterSnapshot second = Build();
  ASSERT_EQ(second.nodes.size(), 3u);
  EXPECT_EQ(second.nodes[2].name, "coming");
  EXPECT_FALSE(second.nodes[2].ready);
  EXPECT_EQ(second.GroupOf(2), "small");
}

// A snapshot read from JSON has no column: a node's group is its label.
TEST_F(LiveSnapshotTest, WithoutAColumnTheGroupIsTheNodesLabel) {
  ClusterSnapshot snapshot;
  snapshot.nodes.push_back(Node("n1").state);
  snapshot.nodes[0].labels[std::string(kNodeGroupLabel)] = "declared";
  EXPECT_EQ(snapshot.GroupOf(0), "declared");
}

// A cluster at rest: the next snapshot takes the same copies back.
TEST_F(LiveSnapshotTest, UnchangedNodesAreNotCopiedAgain) {
  ClusterSnapshot first = Build();
  const NodeState* copies = first.nodes.data();
  ReturnNodes(&first, &cache_);
  EXPECT_TRUE(first.nodes.empty());
  ClusterSnapshot second = Build();
  EXPECT_EQ(second.nodes.data(), copies);
  ASSERT_EQ(second.nodes.size(), 2u);
  EXPECT_EQ(second.nodes[0].name, "n1");
  EXPECT_EQ(second.GroupOf(0), "small");
}

TEST_F(LiveSnapshotTest, AChangedNodeOrGroupIsCopiedAfresh) {
  ClusterSnapshot first = Build();
  ReturnNodes(&first, &cache_);
  // The store replaces an edited node: the cache still holds the old one.
  nodes_.Mutable(1).state.labels["zone"] = "b";
  ClusterSnapshot second = Build();
  ASSERT_EQ(second.nodes.size(), 2u);
  EXPECT_EQ(second.nodes[1].labels.at("zone"), "b");
  ReturnNodes(&second, &cache_);

  group_ = "large";
  ClusterSnapshot third = Build();
  ASSERT_EQ(third.nodes.size(), 2u);
  EXPECT_EQ(third.GroupOf(0), "large");
  ReturnNodes(&third, &cache_);

  nodes_.push_back(Node("n3"));
  EXPECT_EQ(Build().nodes.size(), 3u);
}

// A snapshot not given back (an iteration cut short) leaves nothing to
// reuse: the next one copies.
TEST_F(LiveSnapshotTest, NodesNotGivenBackAreCopiedAgain) {
  ClusterSnapshot first = Build();
  ClusterSnapshot second = Build();
  ASSERT_EQ(second.nodes.size(), 2u);
  EXPECT_NE(second.nodes.data(), first.nodes.data());
}

}  // namespace
}  // namespace propscaler::nodescale
