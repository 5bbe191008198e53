// The executor's contract (nodescale/run/action_executor.h) on its own,
// against the in-memory cluster and the kwok provider: nothing is written
// while the process may not act; a list runs in order and an
// all-or-nothing one stops at its first failure; soft taints stop at their
// budget; a removal hands its nodes to the drain; each outcome says what
// happened, read back from the cluster's objects.
#include "nodescale/run/action_executor.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apiserver/resources.h"
#include "apiserver/store_objects.h"
#include "common/clock.h"
#include "memcluster/memory_cluster.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/provider/kwok.h"
#include "unit/nodescale/run/store_lists.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::seconds;

class ActionExecutorTest : public ::testing::Test {
 protected:
  ActionExecutorTest()
      : cluster_(&clock_),
        provider_(&cluster_.client(), &clock_, {.namespace_ = "kube-system"}),
        reporter_(nullptr, &board_, &cluster_.client(), "kube-system"),
        executor_(
            {&cluster_.client(), &cluster_.client(), &cluster_.client()},
            &provider_, [this] { return ReadPods(); }, &reporter_, &clock_,
            [this] { return may_act_; }, seconds(60)) {
    NodeGroup pool;
    pool.name = "pool";
    pool.max_size = 10;
    pool.declared_template = NodeTemplate{};
    NodeGroup bare;  // no template: kwok cannot make its nodes
    bare.name = "bare";
    bare.max_size = 10;
    groups_ = {pool, bare};
  }

  void AddNode(const std::string& name) {
    ASSERT_TRUE(
        cluster_
            .AddNode({.name = name,
                      .extra_labels = {{std::string(kNodeGroupLabel), "pool"}}})
            .ok());
  }

  ClusterView View() {
    nodes_ = testing_util::StoreNodes(cluster_.store());
    pods_ = ReadPods();
    return {clock_.Now(), &nodes_, &pods_, &groups_, &group_of_};
  }
  SharedPods ReadPods() { return testing_util::StorePods(cluster_.store()); }

  size_t NodeCount() { return View().nodes->size(); }
  std::string NodeJson(const std::string& node) {
    return sim::GetObject(cluster_.store(), "/api/v1/nodes/" + node)
        .value_or("");
  }
  bool HasTaint(const std::string& node, std::string_view taint) {
    return NodeJson(node).find(std::string(taint)) != std::string::npos;
  }

  VirtualClock clock_;
  memcluster::MemoryCluster cluster_;
  KwokProvider provider_;
  NodeScaleStatusBoard board_;
  NodeScaleReporter reporter_;
  bool may_act_ = true;
  ActionExecutor executor_;
  std::vector<NodeGroup> groups_;
  GroupOfNode group_of_ = [](const NodeState& node) {
    return std::string(NodeGroupOf(node));
  };
  SharedNodes nodes_;
  SharedPods pods_;
};

TEST_F(ActionExecutorTest, WritesNothingWhileTheProcessMayNotAct) {
  AddNode("pool-a");
  may_act_ = false;
  const std::vector<ActionOutcome> outcomes =
      executor_.Run({IncreaseSize{"pool", 2}, DeleteNodes{"pool", {"pool-a"}},
                     SetSoftTaints{{{"pool-a", true}}, {}}},
                    View());
  ASSERT_EQ(outcomes.size(), 3u);
  for (const ActionOutcome& outcome : outcomes) {
    EXPECT_FALSE(outcome.ran);
    EXPECT_FALSE(outcome.ok());
  }
  EXPECT_EQ(NodeCount(), 1u);
  EXPECT_FALSE(HasTaint("pool-a", kDeletionCandidateTaint));
}

TEST_F(ActionExecutorTest, AListRunsInOrderAndEachOutcomeSaysWhatHappened) {
  AddNode("pool-a");
  const std::vector<ActionOutcome> outcomes =
      executor_.Run({IncreaseSize{"bare", 1}, IncreaseSize{"pool", 2},
                     IncreaseSize{"gone", 1}},
                    View());
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(outcomes[0].ran);
  EXPECT_EQ(outcomes[0].status.code(), StatusCode::kInvalidArgument)
      << outcomes[0].status.message();
  EXPECT_TRUE(outcomes[1].ok()) << outcomes[1].status.message();
  EXPECT_FALSE(outcomes[2].ran);
  EXPECT_NE(outcomes[2].status.message().find("gone"), std::string::npos);
  EXPECT_EQ(NodeCount(), 3u);  // pool-a and the two asked for
}

TEST_F(ActionExecutorTest, AnAllOrNothingListStopsAtItsFirstFailure) {
  const std::vector<ActionOutcome> outcomes =
      executor_.Run({IncreaseSize{"pool", 1}, IncreaseSize{"bare", 1},
                     IncreaseSize{"pool", 1}},
                    View(), ActionExecutor::OnFailure::kStop);
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(outcomes[0].ok());
  EXPECT_TRUE(outcomes[1].ran);
  EXPECT_FALSE(outcomes[1].ok());
  EXPECT_FALSE(outcomes[2].ran);
  EXPECT_EQ(NodeCount(), 1u);  // the first increase only
}

TEST_F(ActionExecutorTest, SoftTaintsStopAtTheirBudget) {
  for (const char* name : {"pool-a", "pool-b", "pool-c"}) AddNode(name);
  SetSoftTaints taints{{{"pool-a", true}, {"pool-b", true}, {"pool-c", true}},
                       {.max_count = 2, .max_time = seconds(3)}};
  const ActionOutcome outcome = executor_.Run(taints, View());
  EXPECT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.changed, 2);
  EXPECT_TRUE(HasTaint("pool-a", kDeletionCandidateTaint));
  EXPECT_TRUE(HasTaint("pool-b", kDeletionCandidateTaint));
  EXPECT_FALSE(HasTaint("pool-c", kDeletionCandidateTaint));

  // Taken off again, within the budget.
  const ActionOutcome off =
      executor_.Run(SetSoftTaints{{{"pool-a", false}}, {}}, View());
  EXPECT_EQ(off.changed, 1);
  EXPECT_FALSE(HasTaint("pool-a", kDeletionCandidateTaint));
}

TEST_F(ActionExecutorTest, ARemovalHandsItsNodesToTheDrain) {
  AddNode("pool-a");
  AddNode("pool-b");
  const ActionOutcome outcome = executor_.Run(
      StartRemoval{{{"pool-a", "pool"}}, /*all_or_nothing=*/false}, View());
  EXPECT_TRUE(outcome.ok());
  // Empty: deleted in the drain's first pass.
  ASSERT_EQ(outcome.removal.deleted.size(), 1u);
  EXPECT_NE(outcome.removal.deleted[0].find("pool-a"), std::string::npos);
  EXPECT_TRUE(NodeJson("pool-a").empty());
  EXPECT_FALSE(NodeJson("pool-b").empty());
  EXPECT_FALSE(HasTaint("pool-b", kToBeDeletedTaint));
}

TEST_F(ActionExecutorTest, AFailedWriteComesBackAsItsOutcome) {
  AddNode("pool-a");
  cluster_.SetFault([](std::string_view call) {
    return call == "delete nodes" ? Status::Unavailable("the server is down")
                                  : Status::Ok();
  });
  const ActionOutcome outcome =
      executor_.Run(DeleteNodes{"pool", {"pool-a"}}, View());
  EXPECT_TRUE(outcome.ran);
  EXPECT_EQ(outcome.status.code(), StatusCode::kUnavailable);
  EXPECT_NE(outcome.status.message().find("pool-a"), std::string::npos)
      << outcome.status.message();
  EXPECT_FALSE(NodeJson("pool-a").empty());
}

}  // namespace
}  // namespace propscaler::nodescale
