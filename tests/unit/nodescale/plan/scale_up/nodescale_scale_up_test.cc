#include <gtest/gtest.h>

#include <random>

#include "nodescale/plan/scale_up/scale_up.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

class NodescaleScaleUpTest : public ::testing::Test {
 protected:
  ScaleUpPlan Plan(const std::string& expander = "least-waste",
                   PriorityConfig priorities = {}) {
    std::mt19937_64 rng(7);
    auto chain = MakeExpanderChain(expander, priorities, &rng);
    EXPECT_TRUE(chain.ok()) << chain.status().message();
    return PlanScaleUp(snapshot_, groups_, memory_, config_, chain->get());
  }

  static PriorityConfig Priorities(
      std::map<int, std::vector<std::string>> patterns) {
    return *CompilePriorities(patterns);
  }

  ClusterSnapshot snapshot_;
  std::vector<NodeGroup> groups_;
  ScaleUpMemory memory_;
  ScaleUpConfig config_;
};

TEST_F(NodescaleScaleUpTest, PlansNodesForPendingPods) {
  groups_ = {Group("g", 0, 10, 0, 4000, 16 * kGi)};
  for (int i = 0; i < 5; ++i) {
    snapshot_.pods.push_back(Pod("p" + std::to_string(i), 1500, kGi));
  }
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 3);  // two 1.5-cpu pods per 4-cpu node
  EXPECT_EQ(plan.increases[0].pods,
            (std::vector<std::string>{"default/p0", "default/p1", "default/p2",
                                      "default/p3", "default/p4"}));
  EXPECT_TRUE(plan.unschedulable.empty());
}

TEST_F(NodescaleScaleUpTest, PodsThatFitExistingOrUpcomingNodesTriggerNothing) {
  groups_ = {Group("g", 0, 10, 2, 4000, 16 * kGi)};  // one node on its way
  snapshot_.nodes = {Node("g-1", "g", 4000, 16 * kGi)};
  snapshot_.pods = {BoundPod("running", "g-1", 3000, kGi),
                    Pod("fits-existing", 1000, kGi),
                    Pod("fits-upcoming", 3000, kGi),
                    Pod("needs-new", 3000, kGi), Pod("done", 3000, kGi)};
  snapshot_.pods.MutableBack().terminated = true;
  ScaleUpPlan plan = Plan();
  EXPECT_EQ(plan.fit_existing,
            (std::vector<std::string>{"default/fits-existing",
                                      "default/fits-upcoming"}));
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 1);
  EXPECT_EQ(plan.increases[0].pods,
            (std::vector<std::string>{"default/needs-new"}));
}

// A status taint (--status-taint) keeps pods off its healthy node, but a
// new node of the group would not carry it: the pod gets one. Were the key
// not declared, the template would keep the taint and nothing would help.
TEST_F(NodescaleScaleUpTest, AStatusTaintStaysOnItsNodeNotOnTemplates) {
  groups_ = {Group("g", 0, 10, 1, 4000, 16 * kGi)};
  NodeState node = Node("g-1", "g", 4000, 16 * kGi);
  node.taints = {{"example.com/gpu-health", "", TaintEffect::kNoSchedule}};
  snapshot_.nodes = {node};
  snapshot_.pods = {Pod("web", 1000, kGi)};
  config_.taints.status_keys = {"example.com/gpu-health"};
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 1);
  EXPECT_TRUE(plan.fit_existing.empty());

  config_.taints.status_keys.clear();
  EXPECT_TRUE(Plan().increases.empty());
}

TEST_F(NodescaleScaleUpTest, ReasonsPerGroup) {
  groups_ = {Group("small", 0, 10, 0, 2000, 4 * kGi),
             Group("tainted", 0, 10, 0, 16000, 64 * kGi),
             Group("labelled", 0, 10, 0, 16000, 64 * kGi),
             Group("full", 0, 1, 1, 16000, 64 * kGi)};
  groups_[1].declared_template->taints = {
      {"dedicated", "x", TaintEffect::kNoSchedule}};
  groups_[2].declared_template->labels = {{"disk", "hdd"}};
  snapshot_.nodes = {Node("full-1", "full", 16000, 64 * kGi)};
  snapshot_.nodes[0].unschedulable = true;
  snapshot_.pods = {Pod("p", 8000, 8 * kGi)};
  snapshot_.pods.Mutable(0).node_selector = {{"disk", "hdd"}};
  groups_[3].declared_template->labels = {{"disk", "hdd"}};
  snapshot_.nodes[0].labels["disk"] = "hdd";
  groups_[2].max_size = 0;  // labelled fits but has no room
  ScaleUpPlan plan = Plan();
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  const auto& reasons = *plan.unschedulable[0].reasons;
  EXPECT_EQ(reasons.at("small"), "node selector disk=hdd does not match");
  EXPECT_EQ(reasons.at("tainted"), "node selector disk=hdd does not match");
  EXPECT_EQ(reasons.at("labelled"), "max size reached (0)");
  EXPECT_EQ(reasons.at("full"), "max size reached (1)");
}

TEST_F(NodescaleScaleUpTest, TaintAndSizeReasons) {
  groups_ = {Group("small", 0, 10, 0, 2000, 4 * kGi),
             Group("tainted", 0, 10, 0, 16000, 64 * kGi)};
  groups_[1].declared_template->taints = {
      {"dedicated", "x", TaintEffect::kNoSchedule}};
  snapshot_.pods = {Pod("p", 8000, 8 * kGi)};
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  const auto& reasons = *plan.unschedulable[0].reasons;
  EXPECT_EQ(reasons.at("small"),
            "does not fit: insufficient cpu on an empty new node");
  EXPECT_EQ(reasons.at("tainted"),
            "taint dedicated=x:NoSchedule not tolerated");
}

TEST_F(NodescaleScaleUpTest, MaxSizeCapsAndReportsTheRest) {
  groups_ = {Group("g", 0, 2, 0, 4000, 16 * kGi)};
  for (int i = 0; i < 3; ++i) {
    snapshot_.pods.push_back(Pod("p" + std::to_string(i), 3000, kGi));
  }
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 2);
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  EXPECT_EQ(plan.unschedulable[0].pod, "default/p2");
  EXPECT_EQ(plan.unschedulable[0].reasons->at("g"), "max size reached (2)");
}

TEST_F(NodescaleScaleUpTest, GlobalLimitsCap) {
  groups_ = {Group("g", 0, 100, 0, 4000, 16 * kGi)};
  snapshot_.nodes = {Node("other", "", 4000, 16 * kGi)};
  snapshot_.nodes[0].unschedulable = true;  // counts, takes nothing
  for (int i = 0; i < 10; ++i) {
    snapshot_.pods.push_back(Pod("p" + std::to_string(i), 3000, kGi));
  }
  config_.limits.max_nodes_total = 4;
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 3);
  ASSERT_EQ(plan.unschedulable.size(), 7u);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("g"),
            "limit reached: --max-nodes-total=4");

  config_.limits = {};
  config_.limits.max_cores = 12;  // 4 in use: two more 4-cpu nodes
  plan = Plan();
  EXPECT_EQ(plan.increases[0].delta, 2);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("g"),
            "limit reached: --cores-total max 12");

  config_.limits = {};
  config_.limits.max_memory_gib = 16 * 6;  // 16 GiB in use: five more
  plan = Plan();
  EXPECT_EQ(plan.increases[0].delta, 5);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("g"),
            "limit reached: --memory-total max 96GiB");
}

// A compute-class style preference: family A first, B when A cannot grow.
TEST_F(NodescaleScaleUpTest, PriorityFallsBackWhenPreferredIsBackedOffOrFull) {
  groups_ = {Group("a-spot", 0, 10, 0, 4000, 16 * kGi),
             Group("b-ondemand", 0, 10, 0, 4000, 16 * kGi)};
  snapshot_.pods = {Pod("p", 1000, kGi)};
  const auto priorities = Priorities({{50, {"^a-"}}, {10, {"^b-"}}});
  ScaleUpPlan plan = Plan("priority", priorities);
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "a-spot");

  memory_.backed_off_groups = {"a-spot"};
  plan = Plan("priority", priorities);
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "b-ondemand");

  memory_.backed_off_groups.clear();
  groups_[0].max_size = 0;
  plan = Plan("priority", priorities);
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "b-ondemand");
}

TEST_F(NodescaleScaleUpTest, OverflowFromAFullGroupGoesToTheNext) {
  groups_ = {Group("a", 0, 2, 0, 4000, 16 * kGi),
             Group("b", 0, 10, 0, 4000, 16 * kGi)};
  for (int i = 0; i < 5; ++i) {
    snapshot_.pods.push_back(Pod("p" + std::to_string(i), 3000, kGi));
  }
  ScaleUpPlan plan =
      Plan("priority", Priorities({{50, {"^a$"}}, {10, {"^b$"}}}));
  ASSERT_EQ(plan.increases.size(), 2u);
  EXPECT_EQ(plan.increases[0].group, "a");
  EXPECT_EQ(plan.increases[0].delta, 2);
  EXPECT_EQ(plan.increases[1].group, "b");
  EXPECT_EQ(plan.increases[1].delta, 3);
  EXPECT_TRUE(plan.unschedulable.empty());
}

TEST_F(NodescaleScaleUpTest, BackedOffGroupIsReported) {
  groups_ = {Group("a", 0, 10, 0, 4000, 16 * kGi)};
  memory_.backed_off_groups = {"a"};
  snapshot_.pods = {Pod("p", 1000, kGi)};
  ScaleUpPlan plan = Plan();
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("a"), "node group backed off");
}

// Cluster Autoscaler's NodeGroupScaleUpSafety: an unhealthy group is no
// option; the next one takes the pod, and the reason is the group's.
TEST_F(NodescaleScaleUpTest, UnhealthyGroupIsNoOption) {
  groups_ = {Group("a", 0, 10, 0, 4000, 16 * kGi),
             Group("b", 0, 10, 0, 4000, 16 * kGi)};
  memory_.unhealthy_groups = {{"a", "node group unhealthy: 4 of 8 nodes"}};
  snapshot_.pods = {Pod("p", 1000, kGi)};
  ScaleUpPlan plan =
      Plan("priority", Priorities({{50, {"^a$"}}, {10, {"^b$"}}}));
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "b");
  groups_.pop_back();
  plan = Plan();
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("a"),
            "node group unhealthy: 4 of 8 nodes");
}

TEST_F(NodescaleScaleUpTest, ExpanderThatChoosesNothingIsReported) {
  groups_ = {Group("a", 0, 10, 0, 4000, 16 * kGi)};
  snapshot_.pods = {Pod("p", 1000, kGi)};
  ScaleUpPlan plan = Plan("priority", Priorities({{5, {"^zzz"}}}));
  EXPECT_TRUE(plan.increases.empty());
  EXPECT_EQ(plan.unschedulable[0].reasons->at("a"),
            "not chosen by the expander");
}

TEST_F(NodescaleScaleUpTest, BalancesSimilarGroups) {
  groups_ = {Group("web-a", 0, 10, 1, 4000, 16 * kGi),
             Group("web-b", 0, 10, 0, 4000, 16 * kGi),
             Group("web-c", 0, 10, 0, 4000, 16 * kGi),
             Group("batch", 0, 10, 0, 4000, 16 * kGi)};
  groups_[3].declared_template->labels = {{"pool", "batch"}};
  // web-a has one node, full, and its template comes from it.
  snapshot_.nodes = {Node("web-a-1", "web-a", 4000, 16 * kGi)};
  snapshot_.pods = {BoundPod("resident", "web-a-1", 3500, kGi)};
  for (int i = 0; i < 5; ++i) {
    snapshot_.pods.push_back(Pod("p" + std::to_string(i), 3000, kGi));
  }
  config_.balance_similar_node_groups = true;
  ScaleUpPlan plan =
      Plan("priority", Priorities({{50, {"^web-a$"}}, {10, {".*"}}}));
  int64_t total = 0;
  std::map<std::string, int64_t> deltas;
  size_t pods = 0;
  for (const GroupIncrease& inc : plan.increases) {
    deltas[inc.group] = inc.delta;
    total += inc.delta;
    pods += inc.pods.size();
  }
  EXPECT_EQ(total, 5);
  EXPECT_EQ(pods, 5u);
  // Sizes end even: web-a 1+1, web-b 0+2, web-c 0+2; batch untouched.
  EXPECT_EQ(deltas, (std::map<std::string, int64_t>{
                        {"web-a", 1}, {"web-b", 2}, {"web-c", 2}}));
}

TEST_F(NodescaleScaleUpTest, DaemonSetPodsAndDaemonSetOverheadOnNewNodes) {
  groups_ = {Group("g", 0, 10, 0, 4000, 16 * kGi)};
  snapshot_.nodes = {Node("other", "", 1000, kGi)};
  snapshot_.pods = {DaemonSetPod("ds-1", "other", 500, 100 * kMi),
                    Pod("p1", 2000, kGi), Pod("p2", 2000, kGi)};
  PodState pending_ds = DaemonSetPod("ds-2", "", 500, 100 * kMi);
  snapshot_.pods.push_back(pending_ds);  // DaemonSet pods never scale up
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 2);  // 3.5 cpu free per node
  EXPECT_TRUE(plan.unschedulable.empty());
}

}  // namespace
}  // namespace propscaler::nodescale
