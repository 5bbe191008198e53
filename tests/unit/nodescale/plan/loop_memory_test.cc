// The loop's memory told what the drain did (plan/loop_memory.h): a failed
// removal starts --scale-down-delay-after-failure, a deletion
// --scale-down-delay-after-delete and /status's last scale-down; a pass that
// did neither changes nothing; the scale-up leaves out the groups backed
// off and the unhealthy ones. And the scale-up plan as actions.
#include "nodescale/plan/loop_memory.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>
#include <vector>

#include "nodescale/plan/decide.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;

class LoopMemoryTest : public ::testing::Test {
 protected:
  static ScaleDownDelays Delays() {
    ScaleDownDelays delays;
    delays.delay_after_add = Duration(0);
    delays.delay_after_delete = minutes(2);
    delays.delay_after_failure = minutes(3);
    return delays;
  }

  LoopMemory memory_{GroupBackoff(minutes(5), minutes(30)),
                     ProvisionTracker(minutes(15)), ScaleDownTimers(Delays()),
                     ProvReqBackoff(minutes(1), minutes(10), 1000)};
  const TimePoint now_ = std::chrono::system_clock::from_time_t(1'800'000'000);
};

TEST_F(LoopMemoryTest, APassThatRemovedNothingChangesNothing) {
  memory_.NoteRemovals({}, now_);
  EXPECT_EQ(memory_.last_scale_down, "never");
  EXPECT_FALSE(memory_.timers.Blocked(now_));
}

TEST_F(LoopMemoryTest, ADeletionIsTheLastScaleDownAndDelaysTheNext) {
  memory_.NoteRemovals({{"a of pool", "b of pool"}, 0}, now_);
  EXPECT_EQ(memory_.last_scale_down.rfind("b of pool at ", 0), 0u)
      << memory_.last_scale_down;
  EXPECT_TRUE(memory_.timers.Blocked(now_ + minutes(1)));
  EXPECT_FALSE(memory_.timers.Blocked(now_ + minutes(2)));
}

TEST_F(LoopMemoryTest, AFailedRemovalDelaysTheNextWithoutAScaleDown) {
  memory_.NoteRemovals({{}, 1}, now_);
  EXPECT_EQ(memory_.last_scale_down, "never");
  EXPECT_TRUE(memory_.timers.Blocked(now_ + minutes(2)));
  EXPECT_FALSE(memory_.timers.Blocked(now_ + minutes(3)));
}

TEST_F(LoopMemoryTest, TheScaleUpLeavesOutBackedOffAndUnhealthyGroups) {
  std::vector<LiveNode> live;
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    LiveNode node;
    node.state = testing_util::Node(name, "sick", 4000, 16 * testing_util::kGi);
    live.push_back(node);
  }
  const SharedNodes nodes(live);
  const std::vector<Readiness> readiness = {
      Readiness::kReady, Readiness::kUnready, Readiness::kUnready,
      Readiness::kUnready, Readiness::kUnready};
  const GroupOfNode group_of = [](const NodeState&) {
    return std::string("sick");
  };
  const std::vector<NodeGroup> groups = {
      testing_util::Group("sick", 0, 10, 5, 4000, 16 * testing_util::kGi),
      testing_util::Group("failed", 0, 10, 0, 4000, 16 * testing_util::kGi)};
  memory_.backoff.Fail("failed", now_, {"cloudProviderError", "quota"});
  memory_.NoteGroupsForScaleUp(nodes, group_of, readiness, groups, {}, now_);
  EXPECT_EQ(memory_.scale_up.backed_off_groups,
            (std::set<std::string, std::less<>>{"failed"}));
  EXPECT_EQ(memory_.scale_up.unhealthy_groups.size(), 1u);
  EXPECT_TRUE(memory_.scale_up.unhealthy_groups.contains("sick"));

  // Healthy again: no longer left out.
  memory_.NoteGroupsForScaleUp(nodes, group_of,
                               std::vector<Readiness>(5, Readiness::kReady),
                               groups, {}, now_ + std::chrono::hours(1));
  EXPECT_TRUE(memory_.scale_up.unhealthy_groups.empty());
  EXPECT_TRUE(memory_.scale_up.backed_off_groups.empty());
}

TEST(ScaleUpActionsTest, OneIncreaseEachInThePlansOrder) {
  ScaleUpPlan plan;
  plan.increases.push_back({.group = "b", .delta = 2});
  plan.increases.push_back({.group = "a", .delta = 1});
  const std::vector<NodeScaleAction> actions = ScaleUpActions(plan);
  ASSERT_EQ(actions.size(), 2u);
  const auto* first = std::get_if<IncreaseSize>(&actions[0]);
  const auto* second = std::get_if<IncreaseSize>(&actions[1]);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->group, "b");
  EXPECT_EQ(first->delta, 2);
  EXPECT_EQ(second->group, "a");
  EXPECT_EQ(second->delta, 1);
  EXPECT_TRUE(ScaleUpActions({}).empty());
}

}  // namespace
}  // namespace propscaler::nodescale
