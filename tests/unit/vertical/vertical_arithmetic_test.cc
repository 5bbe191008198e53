// cluster-proportional-vertical-autoscaler's own tables
// (pkg/autoscaler/autoscaler_test.go: TestCalculatePerCores,
// TestCalculatePerNodes), transcribed as facts: the config text, the counts
// and the result in thousandths.
#include "vertical/vertical_arithmetic.h"

#include <gtest/gtest.h>

#include <string>

#include "vertical/vertical_config.h"

namespace propscaler {
namespace {

struct CpvaRow {
  const char* name;
  int64_t nodes;
  int64_t cores;
  int64_t expected_millis;
  int base;
  int step;
  int per_step;
};

int64_t Compute(const std::string& per_step_field, const CpvaRow& row) {
  const std::string json =
      "{\"fake-agent\": {\"requests\": {\"cpu\": {\"base\": \"" +
      std::to_string(row.base) + "m\", \"step\":\"" + std::to_string(row.step) +
      "m\", \"" + per_step_field + "\":" + std::to_string(row.per_step) +
      "}}}}";
  Result<VerticalConfig> config = ParseVerticalConfig(json, "test");
  EXPECT_TRUE(config.ok()) << config.status().message();
  if (!config.ok()) return -1;
  return ScaledMillis(config->at("fake-agent").requests.at("cpu"),
                      {row.nodes, row.cores});
}

TEST(VerticalArithmeticTest, CpvaCalculatePerCores) {
  for (const CpvaRow& row : {
           CpvaRow{"base 10, step 1,  per step 1", 4, 7, 17, 10, 1, 1},
           CpvaRow{"base 10, step 2, per step 1", 4, 7, 24, 10, 2, 1},
           CpvaRow{"base 10, step 2, per step 2", 4, 20, 30, 10, 2, 2},
           CpvaRow{"base 10, step 4, per step 3", 4, 20, 20, 10, 1, 2},
           CpvaRow{"base 10, step 1, per step 0", 4, 20, 10, 10, 1, 0},
           CpvaRow{"base 10, step 1, per step -22", 4, 20, 10, 10, 1, -2},
       }) {
    EXPECT_EQ(Compute("coresPerStep", row), row.expected_millis) << row.name;
  }
}

TEST(VerticalArithmeticTest, CpvaCalculatePerNodes) {
  for (const CpvaRow& row : {
           CpvaRow{"base 10, step 1,  per step 1", 4, 7, 14, 10, 1, 1},
           CpvaRow{"base 10, step 2, per step 1", 4, 7, 18, 10, 2, 1},
           CpvaRow{"base 10, step 2, per step 2", 4, 20, 14, 10, 2, 2},
           CpvaRow{"base 10, step 4, per step 3", 4, 20, 12, 10, 1, 2},
           CpvaRow{"base 10, step 1, per step 0", 4, 20, 10, 10, 1, 0},
           CpvaRow{"base 10, step 1, per step -2", 4, 20, 10, 10, 1, -2},
       }) {
    EXPECT_EQ(Compute("nodesPerStep", row), row.expected_millis) << row.name;
  }
}

// The worked example in CPVA's ResourceScaleConfig comment.
TEST(VerticalArithmeticTest, CpvaDocumentedExample) {
  const ResourceScale scale{10, 100, 2, 4, 2};
  EXPECT_EQ(ScaledMillis(scale, {.nodes = 4, .cores = 64}), 42);
  EXPECT_EQ(ScaledMillis(scale, {.nodes = 3, .cores = 3}), 14);
  EXPECT_EQ(ScaledMillis(scale, {.nodes = 1000, .cores = 1000}), 100);
}

TEST(VerticalArithmeticTest, AbsentFieldsCountAsZeroAndMaxZeroIsNoCap) {
  EXPECT_EQ(ScaledMillis({}, {5, 50}), 0);
  EXPECT_EQ(ScaledMillis({.base_millis = 7}, {5, 50}), 7);
  EXPECT_EQ(ScaledMillis({.base_millis = 7,
                          .max_millis = 0,
                          .step_millis = 1000,
                          .nodes_per_step = 1},
                         {5000, 0}),
            5000007);
}

TEST(VerticalArithmeticTest, SaturatesInsteadOfOverflowing) {
  const ResourceScale huge{.base_millis = INT64_MAX / 2,
                           .step_millis = INT64_MAX / 2,
                           .nodes_per_step = 1};
  EXPECT_EQ(ScaledMillis(huge, {.nodes = 1000, .cores = 0}), INT64_MAX);
  EXPECT_EQ(ScaledMillis(ResourceScale{huge.base_millis, 5000, huge.step_millis,
                                       std::nullopt, 1},
                         {.nodes = 1000, .cores = 0}),
            5000);
  EXPECT_EQ(ScaledMillis({.step_millis = 1, .cores_per_step = -1},
                         {.nodes = 0, .cores = INT64_MAX}),
            0);
}

TEST(VerticalArithmeticTest, ComputesEveryContainerAndSide) {
  Result<VerticalConfig> config = ParseVerticalConfig(
      R"({"a": {"requests": {"cpu": {"base": "100m", "step": "10m",
                                     "nodesPerStep": 2}},
                "limits": {"memory": {"base": "64Mi", "step": "1Mi",
                                      "coresPerStep": 8, "max": "70Mi"}}},
          "b": {"requests": {"memory": {"base": "1Gi"}}}})",
      "test");
  ASSERT_TRUE(config.ok()) << config.status().message();
  auto computed = ComputeResources(*config, {.nodes = 5, .cores = 80});
  ASSERT_EQ(computed.size(), 2u);
  EXPECT_EQ(computed["a"].requests.at("cpu"), 130);
  EXPECT_EQ(computed["a"].limits.at("memory"), 70LL * 1024 * 1024 * 1000);
  EXPECT_EQ(computed["b"].requests.at("memory"), 1024LL * 1024 * 1024 * 1000);
  EXPECT_TRUE(computed["b"].limits.empty());
}

}  // namespace
}  // namespace propscaler
