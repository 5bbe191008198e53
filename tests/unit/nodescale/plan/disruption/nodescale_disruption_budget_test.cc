// Disruption budgets and their cron schedules. The cases of Karpenter's
// pkg/apis/v1/nodepool_budgets_test.go (13 of its 13 budget and schedule
// cases; its DecisionRatioThreshold cases belong to the Balanced policy,
// which propscaler does not offer), transcribed as facts, plus rounding.
#include <gtest/gtest.h>

#include "nodescale/plan/disruption/cron_schedule.h"
#include "nodescale/plan/disruption/disruption_budget.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

TimePoint At(int y, int mo, int d, int h, int mi, int s = 0) {
  using namespace std::chrono;
  return sys_days(year(y) / month(mo) / day(d)) + hours(h) + minutes(mi) +
         seconds(s);
}

DisruptionBudget Budget(std::string nodes, std::string schedule = "",
                        Duration duration = Duration(0),
                        std::vector<std::string> reasons = {}) {
  return {std::move(nodes), std::move(reasons), std::move(schedule), duration};
}

// Karpenter's fixture: mid-2000, six budgets.
class BudgetsTest : public ::testing::Test {
 protected:
  const TimePoint now_ = At(2000, 6, 15, 12, 30, 30);
  NodePool pool_{"pool"};
  std::vector<DisruptionBudget>& budgets_ = pool_.budgets;

  void SetUp() override {
    budgets_ = {
        Budget("10", "* * * * *", hours(1)),
        Budget("100", "* * * * *", hours(1)),
        Budget("100%", "* * * * *", hours(1)),
        Budget("15", "* * * * *", hours(1), {"Drifted", "Underutilized"}),
        Budget("5", "* * * * *", hours(1), {"Drifted"}),
        Budget("0", "@weekly", hours(1), {"Underutilized", "Drifted", "Empty"}),
    };
  }
  int64_t Allowed(DisruptionReason reason) {
    return AllowedDisruptions(pool_, reason, 100, 0, now_).allowed;
  }
};

constexpr DisruptionReason kReasons[] = {DisruptionReason::kEmpty,
                                         DisruptionReason::kUnderutilized,
                                         DisruptionReason::kDrifted};

TEST_F(BudgetsTest, ZeroForEveryReasonWhenABudgetForAllIsActive) {
  budgets_[5].schedule = "* * * * *";
  for (DisruptionReason reason : kReasons) EXPECT_EQ(Allowed(reason), 0);
}

TEST_F(BudgetsTest, UnlimitedWhenNoBudgetIsActive) {
  for (DisruptionBudget& budget : budgets_) budget.schedule = "@yearly";
  for (DisruptionReason reason : kReasons) {
    EXPECT_EQ(Allowed(reason), kUnlimitedDisruptions);
  }
}

TEST_F(BudgetsTest, InactiveReasonBudgetsAreIgnored) {
  budgets_[3].schedule = "@yearly";
  budgets_[4].schedule = "@yearly";
  for (DisruptionReason reason : kReasons) EXPECT_EQ(Allowed(reason), 10);
}

TEST_F(BudgetsTest, ABudgetWithoutReasonsCoversEveryReason) {
  budgets_.resize(1);
  for (DisruptionReason reason : kReasons) EXPECT_EQ(Allowed(reason), 10);
}

TEST_F(BudgetsTest, TheMostRestrictiveBudgetPerReasonWins) {
  budgets_.push_back(Budget("4", "* * * * *", hours(1), {"Empty"}));
  EXPECT_EQ(Allowed(DisruptionReason::kEmpty), 4);
  EXPECT_EQ(Allowed(DisruptionReason::kDrifted), 5);
  EXPECT_EQ(Allowed(DisruptionReason::kUnderutilized), 10);
}

TEST_F(BudgetsTest, AnInvalidScheduleAllowsNothingForEveryReason) {
  budgets_[0].schedule = "@wrongly";
  EXPECT_FALSE(BudgetAllows(budgets_[0], 100, now_).ok());
  for (DisruptionReason reason : kReasons) {
    const PoolAllowance allowance =
        AllowedDisruptions(pool_, reason, 100, 0, now_);
    EXPECT_EQ(allowance.allowed, 0);
    EXPECT_NE(allowance.error.find("@wrongly"), std::string::npos)
        << allowance.error;
  }
}

TEST_F(BudgetsTest, AnInvalidNodesValueAllowsNothing) {
  budgets_[0].nodes = "1000a%";
  EXPECT_FALSE(BudgetAllows(budgets_[0], 100, now_).ok());
  EXPECT_EQ(Allowed(DisruptionReason::kEmpty), 0);
}

TEST_F(BudgetsTest, OneBudgetActiveOrNot) {
  EXPECT_EQ(*BudgetAllows(budgets_[0], 100, now_), 10);
  EXPECT_EQ(*BudgetAllows(budgets_[2], 100, now_), 100);
  budgets_[0].schedule = "@yearly";
  EXPECT_EQ(*BudgetAllows(budgets_[0], 100, now_), kUnlimitedDisruptions);
}

TEST(BudgetScheduleTest, AlwaysUtc) {
  // Karpenter: June 0 2000 00:00 at +01:00, i.e. May 30 23:00 UTC; the last
  // @daily hit was 23 hours before.
  EXPECT_FALSE(*BudgetActive(Budget("10", "@daily", minutes(30)),
                             At(2000, 5, 30, 23, 0)));
}

TEST(BudgetScheduleTest, ActiveWithoutScheduleAndWithAHitInTheWindow) {
  const TimePoint now = At(2000, 6, 15, 12, 30, 30);
  EXPECT_TRUE(*BudgetActive(Budget("10"), now));
  EXPECT_TRUE(*BudgetActive(Budget("10", "* * * * *", hours(1)), now));
  EXPECT_FALSE(*BudgetActive(Budget("10", "@yearly", hours(1)), now));
}

// Karpenter uses the year 1000; a TimePoint (nanoseconds since 1970) spans
// only the years 1678 to 2262, so the same fact is checked in 2000.
TEST(BudgetScheduleTest, AHitInTheMiddleOfTheDuration) {
  EXPECT_TRUE(
      *BudgetActive(Budget("10", "@yearly", hours(24)), At(2000, 1, 1, 12, 0)));
}

TEST(BudgetScheduleTest, ADurationLongerThanTheRecurrence) {
  EXPECT_TRUE(
      *BudgetActive(Budget("10", "@daily", hours(48)), At(2024, 1, 7, 0, 0)));
}

TEST(BudgetScheduleTest, AHitBeforeTheDurationIsInactive) {
  EXPECT_FALSE(*BudgetActive(Budget("10", "30 6 * * SUN", hours(6)),
                             At(2024, 1, 7, 0, 0)));
}

TEST(BudgetScheduleTest, ErrorsSayWhyTheCronFails) {
  Result<bool> active = BudgetActive(Budget("10", "0 0 * * tue-mon", hours(6)),
                                     At(2024, 1, 7, 0, 0));
  ASSERT_FALSE(active.ok());
  EXPECT_NE(active.status().message().find(
                "beginning of range (2) beyond end of range (1)"),
            std::string::npos)
      << active.status().message();
  EXPECT_NE(active.status().message().find("day of week"), std::string::npos);
}

// Percentages round up, as a PDB's maxUnavailable (Karpenter's docs: 20% of
// 19 nodes is 4); nodes already disrupting use the allowance, never below 0.
TEST(BudgetArithmeticTest, PercentagesRoundUpAndDisruptingNodesCount) {
  NodePool pool{"p"};
  const TimePoint now = At(2026, 1, 1, 0, 0);
  pool.budgets = {Budget("20%")};
  EXPECT_EQ(
      AllowedDisruptions(pool, DisruptionReason::kEmpty, 19, 0, now).allowed,
      4);
  pool.budgets = {Budget("30%")};
  EXPECT_EQ(
      AllowedDisruptions(pool, DisruptionReason::kEmpty, 10, 0, now).allowed,
      3);
  pool.budgets = {Budget("50%")};
  EXPECT_EQ(
      AllowedDisruptions(pool, DisruptionReason::kEmpty, 3, 0, now).allowed, 2);
  pool.budgets = {Budget("10%")};
  EXPECT_EQ(
      AllowedDisruptions(pool, DisruptionReason::kEmpty, 10, 10, now).allowed,
      0);
  pool.budgets = {Budget("100%")};
  EXPECT_EQ(
      AllowedDisruptions(pool, DisruptionReason::kEmpty, 10, 2, now).allowed,
      8);
}

TEST(CronScheduleTest, ListsStepsNamesAndEitherDayField) {
  Result<CronSchedule> schedule = CronSchedule::Parse("*/15 9-17 1 * mon,fri");
  ASSERT_TRUE(schedule.ok()) << schedule.status().message();
  // 2024-01-05 is a Friday; 2024-01-01 a Monday and the 1st.
  EXPECT_EQ(schedule->LastHitAtOrBefore(At(2024, 1, 5, 10, 7)),
            At(2024, 1, 5, 10, 0));
  EXPECT_EQ(schedule->LastHitAtOrBefore(At(2024, 1, 4, 8, 0)),
            At(2024, 1, 1, 17, 45));
  EXPECT_FALSE(CronSchedule::Parse("* * *").ok());
  EXPECT_FALSE(CronSchedule::Parse("61 * * * *").ok());
  EXPECT_FALSE(CronSchedule::Parse("* * * * 7").ok());
}

}  // namespace
}  // namespace propscaler::nodescale
