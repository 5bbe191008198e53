#include "replicas/scale_down_smoothing.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

namespace propscaler {
namespace {

TimePoint At(int64_t second) {
  return TimePoint() + std::chrono::seconds(second);
}

// Runs cycles against one target as the loop does: keeps the history, and the
// target's replicas become what each cycle applies.
class Target {
 public:
  Target(std::optional<ScaleDownPolicy> policy, int64_t replicas)
      : policy_(policy), replicas_(replicas) {}

  // One cycle at `second` that computed `computed`; returns what it applied.
  int64_t Cycle(int64_t second, int64_t computed) {
    SmoothedReplicas out =
        SmoothScaleDown(policy_, history_, At(second), replicas_, computed);
    history_ = out.history;
    note_ = out.held_back;
    replicas_ = out.replicas;
    return replicas_;
  }
  void set_replicas(int64_t replicas) { replicas_ = replicas; }
  const std::string& note() const { return note_; }
  const ScaleDownHistory& history() const { return history_; }

 private:
  const std::optional<ScaleDownPolicy> policy_;
  int64_t replicas_;
  ScaleDownHistory history_;
  std::string note_;
};

TEST(ScaleDownSmoothingTest, WithoutAPolicyTheComputedCountApplies) {
  ScaleDownHistory history;
  history.samples.push_back({At(5), 7});
  for (auto [current, computed] :
       {std::pair<int64_t, int64_t>{10, 3}, {3, 10}, {4, 4}, {1, 0}, {0, 0}}) {
    SmoothedReplicas out =
        SmoothScaleDown(std::nullopt, history, At(10), current, computed);
    EXPECT_EQ(out.replicas, computed) << current << " -> " << computed;
    EXPECT_EQ(out.history, history);
    EXPECT_EQ(out.held_back, "");
  }
}

TEST(ScaleDownSmoothingTest, ScalesUpAtOnce) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 600,
                                .max_step_percent = 10,
                                .period_seconds = 180},
                3);
  EXPECT_EQ(target.Cycle(0, 10), 10);
  EXPECT_EQ(target.note(), "");
  // Held on the way down, and still up at once.
  EXPECT_EQ(target.Cycle(10, 2), 10);
  EXPECT_EQ(target.Cycle(20, 25), 25);
  EXPECT_EQ(target.note(), "");
}

TEST(ScaleDownSmoothingTest, WindowHoldsTheHighestComputed) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 600,
                                .max_step_percent = 100,
                                .period_seconds = 0},
                10);
  EXPECT_EQ(target.Cycle(0, 10), 10);
  EXPECT_EQ(target.Cycle(100, 3), 10);
  EXPECT_EQ(target.note(),
            "holding 10 (the highest in the last 600s) instead of 3");
  EXPECT_EQ(target.Cycle(500, 5), 10);
  EXPECT_EQ(target.Cycle(600, 4), 10);  // 10 was computed exactly 600s ago
  // 10 has left the window; 5 (at 500s) is now the highest.
  EXPECT_EQ(target.Cycle(601, 4), 5);
  EXPECT_EQ(target.note(),
            "holding 5 (the highest in the last 600s) instead of 4");
  EXPECT_EQ(target.Cycle(1101, 4), 4);
  EXPECT_EQ(target.note(), "");
}

TEST(ScaleDownSmoothingTest, ZeroWindowScalesDownAtOnce) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 0,
                                .max_step_percent = 100,
                                .period_seconds = 0},
                10);
  EXPECT_EQ(target.Cycle(0, 10), 10);
  EXPECT_EQ(target.Cycle(1, 3), 3);
  EXPECT_EQ(target.note(), "");
}

TEST(ScaleDownSmoothingTest, StepsAreLimitedPerPeriodRoundedUp) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 0,
                                .max_step_percent = 33,
                                .period_seconds = 180},
                10);
  // ceil(10 * 33%) = 4.
  EXPECT_EQ(target.Cycle(0, 3), 6);
  EXPECT_EQ(target.note(),
            "stepping down to 6 instead of 3 (at most 33% of 10 per 180s)");
  EXPECT_EQ(target.Cycle(100, 3), 6);
  EXPECT_EQ(target.note(), "holding 6 instead of 3 (one step down per 180s)");
  EXPECT_EQ(target.Cycle(179, 3), 6);
  // ceil(6 * 33%) = 2.
  EXPECT_EQ(target.Cycle(180, 3), 4);
  // ceil(4 * 33%) = 2, but not below what is computed.
  EXPECT_EQ(target.Cycle(360, 3), 3);
  EXPECT_EQ(target.note(), "");
  EXPECT_EQ(target.Cycle(540, 3), 3);
}

TEST(ScaleDownSmoothingTest, WindowAndStepTogether) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 60,
                                .max_step_percent = 50,
                                .period_seconds = 30},
                20);
  EXPECT_EQ(target.Cycle(0, 20), 20);
  EXPECT_EQ(target.Cycle(10, 12), 20);  // held by the window
  EXPECT_EQ(target.Cycle(20, 2), 20);
  EXPECT_EQ(target.Cycle(61, 2), 12);  // 12 (at 10s) is the highest left
  EXPECT_EQ(target.note(),
            "holding 12 (the highest in the last 60s) instead of 2");
  EXPECT_EQ(target.Cycle(81, 2), 12);  // the window lets go, the period not
  EXPECT_EQ(target.note(), "holding 12 instead of 2 (one step down per 30s)");
  EXPECT_EQ(target.Cycle(91, 2), 6);
  EXPECT_EQ(target.Cycle(121, 2), 3);
  EXPECT_EQ(target.Cycle(151, 2), 2);
}

TEST(ScaleDownSmoothingTest, EveryStepRemovesAtLeastOneReplica) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 0,
                                .max_step_percent = 1,
                                .period_seconds = 0},
                5);
  for (int64_t want : {4, 3, 2, 1, 0}) {
    EXPECT_EQ(target.Cycle(0, 0), want);
  }
}

TEST(ScaleDownSmoothingTest, OnceHasNoHistorySoOnlyTheStepLimits) {
  SmoothedReplicas out = SmoothScaleDown(
      ScaleDownPolicy{.stabilization_seconds = 600, .max_step_percent = 50}, {},
      At(0), 10, 2);
  EXPECT_EQ(out.replicas, 5);
  EXPECT_EQ(out.held_back,
            "stepping down to 5 instead of 2 (at most 50% of 10 per 60s)");
  out = SmoothScaleDown(ScaleDownPolicy{.stabilization_seconds = 600}, {},
                        At(0), 10, 2);
  EXPECT_EQ(out.replicas, 2);
}

TEST(ScaleDownSmoothingTest, ManualScaleAboveTheWindowComesDown) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 600,
                                .max_step_percent = 100,
                                .period_seconds = 0},
                10);
  EXPECT_EQ(target.Cycle(0, 10), 10);
  target.set_replicas(20);
  EXPECT_EQ(target.Cycle(10, 5), 10);
  EXPECT_EQ(target.note(),
            "holding 10 (the highest in the last 600s) instead of 5");
  // A manual scale between the computed count and the window's highest stays.
  target.set_replicas(7);
  EXPECT_EQ(target.Cycle(20, 5), 7);
  EXPECT_EQ(target.note(),
            "holding 7 (below the highest in the last 600s, 10) instead of 5");
}

TEST(ScaleDownSmoothingTest, ConvergesForEveryStepPercent) {
  for (int64_t percent : {1, 7, 33, 50, 99, 100}) {
    Target target(ScaleDownPolicy{.stabilization_seconds = 120,
                                  .max_step_percent = percent,
                                  .period_seconds = 30},
                  1000);
    int64_t last = target.Cycle(0, 1000);
    int64_t second = 10;
    for (; second < 200000 && last != 1; second += 10) {
      const int64_t now = target.Cycle(second, 1);
      EXPECT_LE(now, last) << percent << "% at " << second << "s";
      EXPECT_GE(now, 1);
      if (second <= 120) {
        EXPECT_EQ(now, 1000) << "within the window";
      }
      last = now;
    }
    EXPECT_EQ(last, 1) << percent << "%";
    EXPECT_EQ(target.note(), "");
  }
}

TEST(ScaleDownSmoothingTest, HistoryStaysBounded) {
  Target target(ScaleDownPolicy{.stabilization_seconds = 60,
                                .max_step_percent = 100,
                                .period_seconds = 0},
                100);
  // Oscillating counts keep only those that can still be the highest.
  for (int64_t second = 0; second < 10000; ++second) {
    target.Cycle(second, 10 + second % 5);
    ASSERT_LE(target.history().samples.size(), 5u) << second;
  }
  // Falling counts keep at most the window's worth.
  for (int64_t second = 10000; second < 20000; ++second) {
    target.Cycle(second, 30000 - second);
    ASSERT_LE(target.history().samples.size(), 61u) << second;
  }
  EXPECT_EQ(target.history().samples.front().time, At(19999 - 60));
}

}  // namespace
}  // namespace propscaler
