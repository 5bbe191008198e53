#include <gtest/gtest.h>

#include "checks/memory_targets.h"

namespace propscaler::bench {
namespace {

TEST(BenchMemoryTargetsTest, TheReadmesShapesHaveTargetsOthersNone) {
  const MemoryTargets real =
      DefaultMemoryTargets({.server = "real", .nodes = 1000, .pods = 30000});
  EXPECT_EQ(real.peak_rss_mib, 64);
  EXPECT_GT(real.first_loop_s, 3.11);
  EXPECT_GT(real.rest_cpu_ms, 28);
  const MemoryTargets big = DefaultMemoryTargets(
      {.server = "simulated", .nodes = 5000, .pods = 150000});
  EXPECT_GT(big.peak_rss_mib, 151.2);
  const MemoryTargets claims = DefaultMemoryTargets({.server = "simulated",
                                                     .nodes = 5000,
                                                     .pods = 150000,
                                                     .claim_percent = 10});
  EXPECT_GT(claims.peak_rss_mib, 188.8);
  EXPECT_GT(claims.peak_rss_mib, big.peak_rss_mib);
  const MemoryTargets none =
      DefaultMemoryTargets({.server = "simulated", .nodes = 50, .pods = 500});
  EXPECT_EQ(none.peak_rss_mib, 0);
  EXPECT_EQ(
      DefaultMemoryTargets(
          {.server = "real", .nodes = 1000, .pods = 30000, .tiny_pods = true})
          .peak_rss_mib,
      0);
}

TEST(BenchMemoryTargetsTest, EachFigureOverItsTargetFailsNamingBoth) {
  const MemoryTargets targets{64, 6, 60, "issue 14"};
  EXPECT_TRUE(MemoryTargetFailures({48.7, 3.11, 28}, targets).empty());
  const Failures failures = MemoryTargetFailures({80, 7.5, 28}, targets);
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[0],
            "peak RSS 80.0 MiB, over the target of 64.0 MiB (issue 14)");
  EXPECT_EQ(failures[1],
            "first loop 7.5 s, over the target of 6.0 s (issue 14)");
  EXPECT_TRUE(MemoryTargetFailures({1e9, 1e9, 1e9}, {}).empty())
      << "no target, no failure";
}

}  // namespace
}  // namespace propscaler::bench
