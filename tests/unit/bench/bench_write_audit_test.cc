// The soak's audit of propscaler's writes: a write from a view older than a
// change it should have seen (a stale cache kept after a restart, say)
// fails the run, naming the write and the change; a write that lags a change
// by less than the grace does not.
#include <gtest/gtest.h>

#include "checks/write_audit.h"

namespace propscaler::bench {
namespace {

const std::vector<ModelStep> kModel = {
    {0, 3, "start"}, {10, 4, "node added"}, {20, 2, "params edited"}};

TEST(WriteAuditTest, WritesOfTheModelsAnswerPass) {
  EXPECT_TRUE(AuditWrites(kModel,
                          {{1, 3, WriteKind::kSet, "PATCH scale"},
                           {10.2, 4, WriteKind::kSet, "PATCH scale"},
                           {25, 2, WriteKind::kSet, "PATCH scale"}},
                          {})
                  .empty());
}

TEST(WriteAuditTest, AWriteJustAfterAChangeMayCarryTheOldAnswer) {
  EXPECT_TRUE(
      AuditWrites(kModel, {{10.5, 3, WriteKind::kSet, "PATCH scale"}}, {})
          .empty());
  // Within the grace of two changes, either answer is a view it may have.
  EXPECT_TRUE(AuditWrites({{0, 3, "start"}, {10, 4, "a"}, {10.4, 5, "b"}},
                          {{10.8, 4, WriteKind::kSet, "PATCH scale"},
                           {10.9, 3, WriteKind::kSet, "PATCH scale"}},
                          {})
                  .empty());
}

TEST(WriteAuditTest, AStaleWriteFailsNamingTheChangeItMissed) {
  // The old answer written 2 s after a change (grace 1 s): propscaler
  // wrote from a view it should have left behind.
  EXPECT_EQ(
      AuditWrites(kModel, {{12, 3, WriteKind::kSet, "PATCH scale"}}, {}),
      (Failures{"12.000 s: PATCH scale set the target to 3 where the model "
                "says 4 since 10.000 s (node added)"}));
  // Neither answer within the grace.
  EXPECT_EQ(AuditWrites(kModel, {{20.5, 7, WriteKind::kSet, "PATCH scale"}}, {})
                .size(),
            1u);
  EXPECT_EQ(
      AuditWrites(kModel, {{-1, 3, WriteKind::kSet, "PATCH scale"}}, {}),
      (Failures{"-1.000 s: PATCH scale before the model's first answer"}));
}

TEST(WriteAuditTest, AfterAnOutageTheGraceIsLonger) {
  const std::vector<TargetWrite> late = {
      {13, 3, WriteKind::kSet, "PATCH scale"}};
  EXPECT_EQ(AuditWrites(kModel, late, {}).size(), 1u);
  EXPECT_TRUE(
      AuditWrites(kModel, late,
                  {.grace = 1, .after_outage_grace = 5, .outages = {{8, 9}}})
          .empty());
  // Past the outage's grace, the usual one again.
  EXPECT_EQ(
      AuditWrites(kModel, late,
                  {.grace = 1, .after_outage_grace = 2, .outages = {{8, 9}}})
          .size(),
      1u);
}

TEST(WriteAuditTest, NodesAreNeitherCreatedPastThePodsNorDeletedUnderThem) {
  const std::vector<ModelStep> pods = {{0, 2, "start"}, {30, 1, "pod deleted"}};
  EXPECT_TRUE(AuditWrites(pods,
                          {{5, 1, WriteKind::kGrow, "POST nodes"},
                           {6, 2, WriteKind::kGrow, "POST nodes"},
                           {60, 1, WriteKind::kShrink, "DELETE nodes/a"}},
                          {})
                  .empty());
  // A third node for two pods; a node deleted under a pod.
  EXPECT_EQ(AuditWrites(pods,
                        {{7, 3, WriteKind::kGrow, "POST nodes"},
                         {60, 0, WriteKind::kShrink, "DELETE nodes/b"}},
                        {}),
            (Failures{"7.000 s: POST nodes grew the target to 3 where the "
                      "model says 2 since 0.000 s (start)",
                      "60.000 s: DELETE nodes/b shrank the target to 0 where "
                      "the model says 1 since 30.000 s (pod deleted)"}));
}

}  // namespace
}  // namespace propscaler::bench
