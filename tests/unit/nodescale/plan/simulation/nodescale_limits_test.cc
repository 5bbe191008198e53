#include <gtest/gtest.h>

#include "nodescale/plan/simulation/limits.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

TEST(NodescaleLimitsTest, ParseMinMax) {
  Result<MinMax> range = ParseMinMax("cores-total", "8:64");
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->min, 8);
  EXPECT_EQ(range->max, 64);
  for (const char* bad : {"64", "a:5", "5:", "9:8", "-1:5"}) {
    Result<MinMax> r = ParseMinMax("cores-total", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(std::string("--cores-total=") + bad),
              std::string::npos)
        << r.status().message();
  }
}

TEST(NodescaleLimitsTest, DefaultsMatchClusterAutoscaler) {
  ResourceLimits limits;
  EXPECT_EQ(limits.max_nodes_total, 0);
  EXPECT_EQ(limits.max_cores, 320000);
  EXPECT_EQ(limits.max_memory_gib, 6400000);
  NodeAllowance a = NodesAllowedByLimits(limits, {}, Res(4000, 16 * kGi));
  EXPECT_EQ(a.nodes, 1000);
  EXPECT_EQ(a.binding, BindingLimit::kMaxNodesPerScaleUp);
}

TEST(NodescaleLimitsTest, EachLimitBinds) {
  ClusterTotals totals;
  totals.Add(Res(4000, 16 * kGi), 8);  // 8 nodes, 32 cores, 128 GiB
  const Resources node = Res(4000, 16 * kGi);
  ResourceLimits limits;
  limits.max_nodes_total = 10;
  EXPECT_EQ(NodesAllowedByLimits(limits, totals, node).nodes, 2);
  EXPECT_EQ(NodesAllowedByLimits(limits, totals, node).binding,
            BindingLimit::kMaxNodesTotal);
  limits.max_cores = 39;  // 7 cores left: 1 node
  EXPECT_EQ(NodesAllowedByLimits(limits, totals, node).nodes, 1);
  EXPECT_EQ(NodesAllowedByLimits(limits, totals, node).binding,
            BindingLimit::kCoresTotal);
  limits.max_memory_gib = 128;  // no room at all
  EXPECT_EQ(NodesAllowedByLimits(limits, totals, node).nodes, 0);
  EXPECT_EQ(NodesAllowedByLimits(limits, totals, node).binding,
            BindingLimit::kMemoryTotal);
  EXPECT_EQ(DescribeBindingLimit(BindingLimit::kMemoryTotal, limits),
            "limit reached: --memory-total max 128GiB");
}

TEST(NodescaleLimitsTest, RemovalKeepsMinimums) {
  ClusterTotals totals;
  totals.Add(Res(4000, 16 * kGi), 3);  // 12 cores, 48 GiB
  ResourceLimits limits;
  limits.min_cores = 8;
  EXPECT_TRUE(RemovalKeepsMinimums(limits, totals, Res(4000, 16 * kGi)));
  limits.min_cores = 9;
  EXPECT_FALSE(RemovalKeepsMinimums(limits, totals, Res(4000, 16 * kGi)));
  limits.min_cores = 0;
  limits.min_memory_gib = 40;
  EXPECT_FALSE(RemovalKeepsMinimums(limits, totals, Res(4000, 16 * kGi)));
}

}  // namespace
}  // namespace propscaler::nodescale
