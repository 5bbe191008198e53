// Nodes on their way in, decided (plan/arrivals_pass.h): a group short of
// its target past --max-node-provision-time is backed off and gives that
// capacity up (its never-started nodes deleted, the replicas that never
// registered taken off its target, all or nothing), a follower only backs
// it off, and with --enable-csi-node-aware-scheduling a node lacking its
// template's CSI driver is not ready.
#include "nodescale/plan/arrivals_pass.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using std::chrono::minutes;

class ArrivalsPassTest : public ::testing::Test {
 protected:
  static LiveNode Live(const std::string& name, bool ready, TimePoint created) {
    return testing_util::Live(name, "g", ready, created);
  }

  Arrivals Plan(const SharedNodes& nodes, bool may_act, TimePoint now,
                const kube::VolumeObjects* volumes = nullptr) {
    return PlanArrivals({&nodes, &groups_, &group_of_, volumes, may_act, now},
                        settings_, &memory_);
  }

  // The group asked for 3, one node Ready at t0, a second registered late
  // and still starting when the provision time is up.
  Arrivals Overdue(bool may_act) {
    const SharedNodes first(std::vector<LiveNode>{Live("a", true, t0_)});
    Plan(first, may_act, t0_);
    nodes_ = SharedNodes(std::vector<LiveNode>{
        Live("a", true, t0_), Live("b", false, t0_ + minutes(10))});
    return Plan(nodes_, may_act, t0_ + minutes(16));
  }

  NodeScaleSettings settings_;
  std::vector<NodeGroup> groups_{Group("g", 0, 10, 3, 4000, 16 * kGi)};
  GroupOfNode group_of_ = [](const NodeState&) { return std::string("g"); };
  LoopMemory memory_{GroupBackoff(minutes(5), minutes(30)),
                     ProvisionTracker(minutes(15)), ScaleDownTimers({}),
                     ProvReqBackoff(minutes(1), minutes(10), 1000)};
  SharedNodes nodes_;
  const TimePoint t0_ = std::chrono::system_clock::from_time_t(1'800'000'000);
};

TEST_F(ArrivalsPassTest, NodesInTimeGiveNothingUp) {
  const SharedNodes nodes(std::vector<LiveNode>{
      Live("a", true, t0_), Live("b", false, t0_ + minutes(10))});
  const Arrivals arrivals = Plan(nodes, true, t0_ + minutes(11));
  EXPECT_TRUE(arrivals.given_up.empty());
  EXPECT_TRUE(arrivals.removed.empty());
  EXPECT_EQ(
      arrivals.readiness,
      (std::vector<Readiness>{Readiness::kReady, Readiness::kNotStarted}));
}

TEST_F(ArrivalsPassTest, AnOverdueGroupGivesItsCapacityUp) {
  const Arrivals arrivals = Overdue(/*may_act=*/true);
  ASSERT_EQ(arrivals.given_up.size(), 1u);
  const CapacityGivenUp& given = arrivals.given_up[0];
  EXPECT_EQ(given.group, "g");
  EXPECT_EQ(given.within, minutes(15));
  ASSERT_EQ(given.actions.size(), 2u);
  const auto* deleted = std::get_if<DeleteNodes>(&given.actions[0]);
  ASSERT_NE(deleted, nullptr);
  EXPECT_EQ(deleted->nodes, std::vector<std::string>{"b"});
  const auto* decreased = std::get_if<DecreaseTarget>(&given.actions[1]);
  ASSERT_NE(decreased, nullptr);
  EXPECT_EQ(decreased->delta, 1) << "the third never registered";
  EXPECT_EQ(given.target_decrease, 1);
  EXPECT_EQ(given.new_target, 1) << "the node that arrived";
  EXPECT_EQ(arrivals.removed, std::set<std::string>{"b"});
  EXPECT_EQ(arrivals.readiness, std::vector<Readiness>{Readiness::kReady})
      << "of the nodes kept";
  EXPECT_TRUE(memory_.backoff.BackedOff("g", t0_ + minutes(17)));
  EXPECT_EQ(given.backed_off_until, t0_ + minutes(21));
}

TEST_F(ArrivalsPassTest, AFollowerBacksOffAndRemovesNothing) {
  const Arrivals arrivals = Overdue(/*may_act=*/false);
  ASSERT_EQ(arrivals.given_up.size(), 1u);
  EXPECT_TRUE(arrivals.removed.empty());
  EXPECT_EQ(arrivals.readiness.size(), 2u);
  EXPECT_TRUE(memory_.backoff.BackedOff("g", t0_ + minutes(17)));
}

TEST_F(ArrivalsPassTest, ALackingCsiDriverIsNotReadyOnlyWhenAsked) {
  NodeTemplate model{Res(4000, 16 * kGi), {}, {}};
  model.volume_limits = {{"ebs.csi.aws.com", 25}};
  memory_.scale_up.remembered_templates["g"] = model;
  kube::VolumeObjects volumes;  // no CSINode for "a"
  const SharedNodes nodes(
      std::vector<LiveNode>{Live("a", true, t0_ - minutes(1))});
  EXPECT_EQ(Plan(nodes, true, t0_, &volumes).readiness,
            std::vector<Readiness>{Readiness::kReady})
      << "--enable-csi-node-aware-scheduling is off";
  settings_.scale_up.csi_node_aware_scheduling = true;
  EXPECT_EQ(Plan(nodes, true, t0_, &volumes).readiness,
            std::vector<Readiness>{Readiness::kNotStarted});
  volumes.node_limits["a"] = {{"ebs.csi.aws.com", 25}};
  EXPECT_EQ(Plan(nodes, true, t0_, &volumes).readiness,
            std::vector<Readiness>{Readiness::kReady});
}

}  // namespace
}  // namespace propscaler::nodescale
