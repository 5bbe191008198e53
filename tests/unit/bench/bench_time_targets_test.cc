// propscaler_bench's time targets: a time within its target passes, one
// past it is a miss naming the benchmark, the time, the target and the
// issue; a prefix target covers each of its arguments and nothing else.
#include <gtest/gtest.h>

#include "checks/time_targets.h"

namespace propscaler::bench {
namespace {

TEST(TimeTargetsTest, WithinTheTargetPasses) {
  EXPECT_FALSE(
      TimeTargetMiss(BenchTimeTargets(), "PlanScaleUpBench/10000", 99.9));
  EXPECT_FALSE(
      TimeTargetMiss(BenchTimeTargets(), "PlanScaleUpBench/100000", 1000));
}

TEST(TimeTargetsTest, PastTheTargetIsAMissThatSaysWhich) {
  const std::optional<std::string> miss =
      TimeTargetMiss(BenchTimeTargets(), "PlanScaleUpBench/10000", 150.25);
  ASSERT_TRUE(miss);
  EXPECT_EQ(*miss,
            "PlanScaleUpBench/10000: 150.2 ms, over the 100 ms target "
            "(issue 3)");
  EXPECT_TRUE(TimeTargetMiss(BenchTimeTargets(), "PlanScaleDownBench", 501));
}

TEST(TimeTargetsTest, APrefixCoversEachArgumentOfItsBenchmark) {
  const std::vector<TimeTarget> targets = {
      {"DisruptionPassBench/nodes:1000/", 1000, "issue 26"}};
  EXPECT_TRUE(
      TimeTargetMiss(targets, "DisruptionPassBench/nodes:1000/full:1", 1001));
  EXPECT_FALSE(
      TimeTargetMiss(targets, "DisruptionPassBench/nodes:5000/full:1", 3000));
  EXPECT_TRUE(TimeTargetMiss(BenchTimeTargets(),
                             "DisruptionPassBench/nodes:5000/full:1", 10001));
}

TEST(TimeTargetsTest, ABenchmarkWithoutATargetIsNotJudged) {
  EXPECT_FALSE(
      TimeTargetMiss(BenchTimeTargets(), "SomeBenchWithoutAFigure/8", 1e6));
  // An exact name is not a prefix: the 100,000-pod case has its own.
  const std::vector<TimeTarget> targets = {
      {"PlanScaleUpBench/10000", 100, "issue 3"}};
  EXPECT_FALSE(TimeTargetMiss(targets, "PlanScaleUpBench/100000", 500));
}

}  // namespace
// Karpenter's mix over a NodePool is held to Karpenter's best published
// figures; as 2,000 declared groups, to not slower than before issue 64.
TEST(TimeTargetsTest, KarpentersMixIsHeldToKarpentersPublishedFigures) {
  EXPECT_FALSE(TimeTargetMiss(BenchTimeTargets(),
                              "PlanClaimsKarpenterMixBench/pods:1000", 780));
  const std::optional<std::string> miss = TimeTargetMiss(
      BenchTimeTargets(), "PlanClaimsKarpenterMixBench/pods:1000", 781);
  ASSERT_TRUE(miss);
  EXPECT_EQ(*miss,
            "PlanClaimsKarpenterMixBench/pods:1000: 781 ms, over the 780 ms "
            "target (issue 64: Karpenter's published figure)");
  EXPECT_TRUE(TimeTargetMiss(BenchTimeTargets(),
                             "PlanClaimsKarpenterMixBench/pods:20000", 20201));
  EXPECT_TRUE(TimeTargetMiss(BenchTimeTargets(),
                             "PlanClaimsKwokCatalogueBench/pods:20000", 20201));
  EXPECT_FALSE(TimeTargetMiss(BenchTimeTargets(),
                              "PlanScaleUpKarpenterMixBench/pods:1000", 3277));
  EXPECT_TRUE(TimeTargetMiss(BenchTimeTargets(),
                             "PlanScaleUpKarpenterMixBench/pods:1000", 4921));
  EXPECT_TRUE(TimeTargetMiss(
      BenchTimeTargets(),
      "PlanScaleUpKarpenterMixLargeBench/pods:20000/iterations:1", 946801));
}

TEST(TimeTargetsTest, EveryFigureOfTheDecodersAndParamsHasACeiling) {
  for (const char* name :
       {"DecodeNodeWatchEventBench", "WatchEventIntoStoreBench",
        "DecodeNodeListPageBench", "ParseParamsBench/linear",
        "DesiredReplicasBench/ladder", "PlanScaleDownCaShapeBench/nodes:2000",
        "PlanScaleUpZonalVolumesBench/pods:20000/claims:1"}) {
    EXPECT_TRUE(TimeTargetMiss(BenchTimeTargets(), name, 1e6)) << name;
  }
}

}  // namespace propscaler::bench
