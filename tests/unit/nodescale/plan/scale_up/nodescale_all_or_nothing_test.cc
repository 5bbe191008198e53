// PlanAllOrNothingScaleUp: best-effort-atomic-scale-up ProvisioningRequests'
// scale-up. The cluster and requests of Cluster Autoscaler's
// provisioningrequest/orchestrator/orchestrator_test.go (TestScaleUp): 100
// nodes of 100m cpu and 10 bytes of memory in group test-cpu (min 50, max
// 150) and 100 nodes of 1m and 1000 bytes in no group.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "nodescale/plan/scale_up/scale_up.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

class AllOrNothingScaleUpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 100; ++i) {
      snapshot_.nodes.push_back(
          Node("test-cpu-node-" + std::to_string(i), "test-cpu", 100, 10));
    }
    for (int i = 0; i < 100; ++i) {
      snapshot_.nodes.push_back(
          Node("test-mem-node-" + std::to_string(i), "", 1, 1000));
    }
    groups_ = {Group("test-cpu", 50, 150, 100, 100, 10)};
  }

  // The request's `count` pods, pending after the others.
  void Request(int count, int64_t cpu_millis, int64_t memory_bytes) {
    for (int i = 0; i < count; ++i) {
      PodState pod =
          Pod("req-0-" + std::to_string(i), cpu_millis, memory_bytes, "req");
      pod.owner_kind = "ProvisioningRequest";
      request_.insert(pod.Key());
      snapshot_.pods.push_back(std::move(pod));
    }
  }

  ScaleUpPlan Plan() {
    std::mt19937_64 rng(7);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    EXPECT_TRUE(chain.ok());
    return PlanAllOrNothingScaleUp(snapshot_, groups_, memory_, config_,
                                   chain->get(), request_);
  }

  ScaleUpPlan PlanAsUsual() {
    std::mt19937_64 rng(7);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    EXPECT_TRUE(chain.ok());
    return PlanScaleUp(snapshot_, groups_, memory_, config_, chain->get());
  }

  // No increase and `left` pods unschedulable, test-cpu saying `why` of
  // the first, where the usual plan grows test-cpu by `usual`.
  void ExpectNothingWhereUsualGrows(size_t left, const std::string& why,
                                    int64_t usual) {
    const ScaleUpPlan plan = Plan();
    EXPECT_TRUE(plan.increases.empty());
    ASSERT_EQ(plan.unschedulable.size(), left);
    EXPECT_EQ(plan.unschedulable[0].reasons->at("test-cpu"),
              "not all pods would fit and scale-up is using all-or-nothing "
              "strategy: " +
                  why);
    const ScaleUpPlan as_usual = PlanAsUsual();
    ASSERT_EQ(as_usual.increases.size(), 1u);
    EXPECT_EQ(as_usual.increases[0].delta, usual);
  }

  ClusterSnapshot snapshot_;
  std::vector<NodeGroup> groups_;
  ScaleUpMemory memory_;
  ScaleUpConfig config_;
  std::set<std::string> request_;
};

// CA: "one ProvisioningRequest of atomic scale up class": 5 pods of 5m and
// 5 bytes fit: ScaleUpNotNeeded.
TEST_F(AllOrNothingScaleUpTest, PodsThatFitNeedNoScaleUp) {
  Request(5, 5, 5);
  const ScaleUpPlan plan = Plan();
  EXPECT_TRUE(plan.increases.empty());
  EXPECT_TRUE(plan.unschedulable.empty());
  EXPECT_EQ(plan.fit_existing.size(), 5u);
}

// CA: "capacity is there, large atomic scale-up request doesn't require
// scale-up": 100 pods of 1m and 100 bytes, one on each memory node.
TEST_F(AllOrNothingScaleUpTest, ALargeRequestThatFitsNeedsNoScaleUp) {
  Request(100, 1, 100);
  const ScaleUpPlan plan = Plan();
  EXPECT_TRUE(plan.increases.empty());
  EXPECT_TRUE(plan.unschedulable.empty());
}

// CA: "impossible atomic scale-up request doesn't trigger scale-up": 5001
// pods of 1m and 1 byte. The nodes there are take 1,100 (10 on each cpu
// node, 1 on each memory node); the 50 nodes test-cpu may still add take
// 500 of the rest: no scale-up at all, where the usual plan adds the 50.
TEST_F(AllOrNothingScaleUpTest, ARequestBeyondTheGroupsMaximumGetsNothing) {
  Request(5001, 1, 1);
  ExpectNothingWhereUsualGrows(
      5001 - 1100, "500 of 3901 pods on the 50 new nodes allowed", 50);
}

// CA: "possible atomic scale-up request triggers scale-up": 120 pods of
// 100m; 100 fit the cpu nodes, the other 20 get 20 new test-cpu nodes in
// one increase.
TEST_F(AllOrNothingScaleUpTest, ThePodsLeftGetOneIncrease) {
  Request(120, 100, 1);
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "test-cpu");
  EXPECT_EQ(plan.increases[0].delta, 20);
  EXPECT_EQ(plan.increases[0].pods.size(), 20u);
  EXPECT_EQ(plan.fit_existing.size(), 100u);
  EXPECT_TRUE(plan.unschedulable.empty());
}

// --max-nodes-total 210 leaves room for 10 of the 20 nodes: the limit cuts
// the count, so nothing is added (the usual plan adds the 10).
TEST_F(AllOrNothingScaleUpTest, ALimitThatCutsTheCountAbortsIt) {
  Request(120, 100, 1);
  config_.limits.max_nodes_total = 210;
  ExpectNothingWhereUsualGrows(20, "10 of 20 pods on the 10 new nodes allowed",
                               10);
}

// Other pending pods take the room there is first and get no nodes from
// the request's scale-up: 100 pods of 100m fill the cpu nodes, so all 20
// of the request's need new nodes, and only they are planned for.
TEST_F(AllOrNothingScaleUpTest, OtherPendingPodsTakeTheRoomFirst) {
  for (int i = 0; i < 105; ++i) {
    snapshot_.pods.push_back(Pod("web-" + std::to_string(i), 100, 1));
  }
  Request(20, 100, 1);
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 20);
  for (const std::string& pod : plan.increases[0].pods) {
    EXPECT_TRUE(request_.contains(pod)) << pod;
  }
  EXPECT_TRUE(plan.unschedulable.empty()) << "the web pods are left out";
}

// Two groups that could each take half: the usual plan grows both; all or
// nothing takes one group or none.
TEST_F(AllOrNothingScaleUpTest, PodsAreNotSplitAcrossGroups) {
  groups_ = {Group("a", 0, 4, 0, 1000, 10), Group("b", 0, 4, 0, 1000, 10)};
  groups_[1].declared_template->labels = {{"kind", "b"}};
  snapshot_.nodes.clear();
  Request(8, 1000, 1);
  EXPECT_TRUE(Plan().increases.empty());
  EXPECT_EQ(PlanAsUsual().increases.size(), 2u);
  groups_[1].max_size = 8;  // b alone can take them now
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "b");
  EXPECT_EQ(plan.increases[0].delta, 8);
}

// With --balance-similar-node-groups the chosen group shares its increase
// with the groups like it (zones of one pool): 3 nodes over two zones.
TEST_F(AllOrNothingScaleUpTest, SimilarGroupsShareTheIncrease) {
  groups_ = {Group("zone-a", 0, 3, 0, 1000, 10),
             Group("zone-b", 0, 3, 0, 1000, 10)};
  snapshot_.nodes.clear();
  config_.balance_similar_node_groups = true;
  Request(3, 1000, 1);
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 2u);
  EXPECT_EQ(plan.increases[0].delta + plan.increases[1].delta, 3);
  EXPECT_TRUE(plan.unschedulable.empty());
}

}  // namespace
}  // namespace propscaler::nodescale
