#include "nodescale/plan/scale_down/soft_taints.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::seconds;

TEST(SoftTaintsTest, TaintsUnneededAndUntaintsNeededNodesInOrder) {
  const std::vector<SoftTaintNode> nodes = {
      {"a", /*tainted=*/false, /*unneeded=*/true},
      {"b", /*tainted=*/true, /*unneeded=*/true},
      {"c", /*tainted=*/true, /*unneeded=*/false},
      {"d", /*tainted=*/false, /*unneeded=*/false},
  };
  const std::vector<SoftTaintChange> changes = SoftTaintChanges(nodes, {});
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].node, 0u);
  EXPECT_TRUE(changes[0].taint);
  EXPECT_EQ(changes[1].node, 2u);
  EXPECT_FALSE(changes[1].taint);
}

TEST(SoftTaintsTest, ANodeBeingRemovedGetsNoSoftTaint) {
  const std::vector<SoftTaintNode> nodes = {{"a", false, true},
                                            {"b", true, false}};
  const std::vector<SoftTaintChange> changes =
      SoftTaintChanges(nodes, {"a", "b"});
  // b is needed again: its taint comes off even if it is listed.
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].node, 1u);
}

TEST(SoftTaintsTest, TheBudgetBoundsCountAndTime) {
  const SoftTaintBudget budget{.max_count = 2, .max_time = seconds(3)};
  EXPECT_TRUE(budget.Allows(0, seconds(0)));
  EXPECT_TRUE(budget.Allows(1, seconds(2)));
  EXPECT_FALSE(budget.Allows(2, seconds(0)));
  EXPECT_FALSE(budget.Allows(0, seconds(3)));
}

TEST(SoftTaintsTest, AZeroBudgetChangesNothing) {
  EXPECT_FALSE((SoftTaintBudget{.max_count = 0}).Allows(0, seconds(0)));
  EXPECT_FALSE((SoftTaintBudget{.max_count = 10, .max_time = seconds(0)})
                   .Allows(0, seconds(0)));
}

}  // namespace
}  // namespace propscaler::nodescale
