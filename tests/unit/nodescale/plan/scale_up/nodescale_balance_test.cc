#include <gtest/gtest.h>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/scale_up/balance.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

TEST(NodescaleBalanceTest, SimilarWithinFivePercentIgnoringZone) {
  NodeTemplate a{Res(4000, 16 * kGi),
                 {{"topology.kubernetes.io/zone", "a"}, {"pool", "web"}},
                 {}};
  NodeTemplate b = a;
  b.labels["topology.kubernetes.io/zone"] = "b";
  b.labels[std::string(kNodeGroupLabel)] = "web-b";
  b.allocatable.memory_bytes = 16 * kGi * 96 / 100;  // 4% less
  EXPECT_TRUE(SimilarTemplates(a, b));
  b.allocatable.memory_bytes = 16 * kGi * 94 / 100;  // 6% less
  EXPECT_FALSE(SimilarTemplates(a, b));
  b.allocatable.memory_bytes = 16 * kGi;
  b.labels["pool"] = "batch";
  EXPECT_FALSE(SimilarTemplates(a, b));
  b.labels["pool"] = "web";
  b.taints = {{"k", "v", TaintEffect::kNoSchedule}};
  EXPECT_FALSE(SimilarTemplates(a, b));
}

TEST(NodescaleBalanceTest, SplitFillsSmallestFirst) {
  EXPECT_EQ(SplitIncrease(6, {{3, 10}, {1, 10}, {2, 10}}),
            (std::vector<int64_t>{1, 3, 2}));  // all end at 4
  EXPECT_EQ(SplitIncrease(5, {{0, 10}, {0, 10}}), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(SplitIncrease(5, {{0, 1}, {0, 10}}),
            (std::vector<int64_t>{1, 4}));  // max respected
  EXPECT_EQ(SplitIncrease(5, {{0, 1}, {0, 2}}),
            (std::vector<int64_t>{1, 2}));  // everyone at max
}

}  // namespace
}  // namespace propscaler::nodescale
