// Scale-down's last step, pure: which of the planned removals go this pass.
#include "nodescale/plan/scale_down/removal_choice.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;

constexpr ScaleDownDelays kDelays{minutes(10), minutes(10), minutes(0),
                                  minutes(3)};

NodeRemoval Empty(const std::string& node) {
  return {node, "g", NodeRemoval::Reason::kEmpty, 0};
}
NodeRemoval Busy(const std::string& node) {
  return {node, "g", NodeRemoval::Reason::kUnderutilized, 0.3};
}

std::vector<std::string> Names(const RemovalChoice& choice) {
  std::vector<std::string> out;
  for (const NodeRemoval& removal : choice.removals) {
    out.push_back(removal.node);
  }
  return out;
}

class RemovalChoiceTest : public ::testing::Test {
 protected:
  // The plan's nodes unneeded from t0, and `later` after it.
  RemovalChoice ChooseAfter(const ScaleDownPlan& plan, Duration later,
                            const RemovalsInFlight& in_flight = {},
                            ScaleDownParallelism parallelism = {}) {
    timers_.SetUnneeded(UnneededNodes(plan), t0_);
    return ChooseRemovals(plan, timers_, in_flight, parallelism, t0_ + later);
  }

  const TimePoint t0_ = TimePoint() + std::chrono::hours(1);
  ScaleDownTimers timers_{kDelays};
};

TEST_F(RemovalChoiceTest, NothingBeforeTheUnneededTime) {
  const RemovalChoice choice =
      ChooseAfter({{Empty("e1"), Busy("b1")}, {}}, minutes(9));
  EXPECT_TRUE(choice.removals.empty());
  EXPECT_EQ(choice.waiting, "no unneeded node is due");
}

TEST_F(RemovalChoiceTest, EmptyNodesInBulkUpToTheLimitBeforeAnyBusyOne) {
  const ScaleDownPlan plan{{Empty("e1"), Empty("e2"), Empty("e3"), Busy("b1")},
                           {}};
  // --max-empty-bulk-delete=2 alone sets the parallelism to 2 as well.
  EXPECT_EQ(Names(ChooseAfter(plan, minutes(10), {}, {2, 2, 1})),
            (std::vector<std::string>{"e1", "e2"}));
}

// Cluster Autoscaler's budget (core/scaledown/budgets): empty nodes first,
// then busy ones up to the drain parallelism, all within the parallelism,
// in one pass.
TEST_F(RemovalChoiceTest, EmptyAndBusyNodesGoTogetherWithinTheBudget) {
  const ScaleDownPlan plan{{Empty("e1"), Empty("e2"), Busy("b1"), Busy("b2")},
                           {}};
  EXPECT_EQ(Names(ChooseAfter(plan, minutes(10))),
            (std::vector<std::string>{"e1", "e2", "b1"}));
}

TEST_F(RemovalChoiceTest, DrainParallelismLetsSeveralBusyNodesGo) {
  const ScaleDownPlan plan{
      {Busy("b1"), Busy("b2"), Busy("b3"), Busy("b4"), Busy("b5")}, {}};
  EXPECT_EQ(Names(ChooseAfter(plan, minutes(10), {}, {10, 10, 3})),
            (std::vector<std::string>{"b1", "b2", "b3"}));
}

TEST_F(RemovalChoiceTest, TheParallelismBoundsEmptyAndBusyTogether) {
  const ScaleDownPlan plan{
      {Empty("e1"), Empty("e2"), Busy("b1"), Busy("b2"), Busy("b3")}, {}};
  EXPECT_EQ(Names(ChooseAfter(plan, minutes(10), {}, {10, 3, 3})),
            (std::vector<std::string>{"e1", "e2", "b1"}));
  EXPECT_EQ(Names(ChooseAfter(plan, minutes(10), {}, {10, 2, 3})),
            (std::vector<std::string>{"e1", "e2"}));
}

TEST_F(RemovalChoiceTest, OneBusyNodeAtATimeWhenNoneIsEmpty) {
  const ScaleDownPlan plan{{Busy("b1"), Busy("b2")}, {}};
  EXPECT_EQ(Names(ChooseAfter(plan, minutes(10))),
            std::vector<std::string>{"b1"});
}

TEST_F(RemovalChoiceTest, NodesBeingDeletedAreNotChosenAgain) {
  const ScaleDownPlan plan{{Empty("e1"), Busy("b1")}, {}};
  EXPECT_EQ(Names(ChooseAfter(plan, minutes(10), {"", {"e1"}})),
            std::vector<std::string>{"b1"});
}

TEST_F(RemovalChoiceTest, ADrainingRemovalHoldsEveryOther) {
  const RemovalChoice choice =
      ChooseAfter({{Empty("e1")}, {}}, minutes(10), {"b9", {}});
  EXPECT_TRUE(choice.removals.empty());
  EXPECT_EQ(choice.waiting, "waiting for evicted pods to leave b9");
}

TEST_F(RemovalChoiceTest, ADelayAfterAScaleUpHoldsEveryRemoval) {
  timers_.ScaledUp(t0_ + minutes(5));
  const ScaleDownPlan plan{{Empty("e1")}, {}};
  RemovalChoice choice = ChooseAfter(plan, minutes(14));
  EXPECT_TRUE(choice.removals.empty());
  EXPECT_NE(choice.waiting.find("after-add"), std::string::npos)
      << choice.waiting;
  choice = ChooseAfter(plan, minutes(15));
  EXPECT_EQ(Names(choice), std::vector<std::string>{"e1"});
}

}  // namespace
}  // namespace propscaler::nodescale
