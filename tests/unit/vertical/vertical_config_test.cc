#include "vertical/vertical_config.h"

#include <gtest/gtest.h>

#include <string>

namespace propscaler {
namespace {

TEST(VerticalConfigTest, ReadsAsGoDoesIgnoringCaseAndUnknownFields) {
  Result<VerticalConfig> config = ParseVerticalConfig(
      R"({"c": {"Requests": {"cpu": {"BASE": "10m", "Step": 1,
                                     "coresperstep": 2, "extra": true,
                                     "max": null}},
                "LIMITS": {"memory": {"base": " 8Mi ", "step": 0.5,
                                      "NodesPerStep": 3}}},
          "d": null})",
      "--default-config");
  ASSERT_TRUE(config.ok()) << config.status().message();
  const ResourceScale& cpu = config->at("c").requests.at("cpu");
  EXPECT_EQ(cpu,
            (ResourceScale{
                .base_millis = 10, .step_millis = 1000, .cores_per_step = 2}));
  const ResourceScale& memory = config->at("c").limits.at("memory");
  EXPECT_EQ(memory.base_millis, 8LL * 1024 * 1024 * 1000);
  EXPECT_EQ(memory.step_millis, 500);
  EXPECT_EQ(memory.nodes_per_step, 3);
  EXPECT_EQ(config->at("d"), ContainerScale());
}

TEST(VerticalConfigTest, TheLastDuplicateWins) {
  Result<VerticalConfig> config = ParseVerticalConfig(
      R"({"c": {"requests": {"cpu": {"base": "1", "base": "2"}},
                "requests": {"memory": {"base": "3"}}}})",
      "f");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->at("c").requests.at("cpu").base_millis, 2000);
  EXPECT_EQ(config->at("c").requests.at("memory").base_millis, 3000);
}

TEST(VerticalConfigTest, ErrorsNameTheFieldAndTheValue) {
  struct Case {
    const char* json;
    const char* message;
  };
  for (const Case& c : {
           Case{"[]", "--config-file: expected a JSON object, got []"},
           Case{"{\"c\": 1}",
                "--config-file: c: expected a JSON object with requests or "
                "limits, got 1"},
           Case{R"({"c": {"requests": []}})",
                "--config-file: c.requests: expected a JSON object of "
                "resources, got []"},
           Case{R"({"c": {"requests": {"cpu": {"base": "ten"}}}})",
                "--config-file: c.requests.cpu.base: quantity \"ten\""},
           Case{R"({"c": {"requests": {"cpu": {"base": true}}}})",
                "--config-file: c.requests.cpu.base: expected a quantity"},
           Case{R"({"c": {"limits": {"cpu": {"coresPerStep": 1.5}}}})",
                "--config-file: c.limits.cpu.coresPerStep: expected an "
                "integer, got 1.5"},
           Case{R"({"c": {"limits": {"cpu": {"nodesPerStep": "2"}}}})",
                "--config-file: c.limits.cpu.nodesPerStep: expected an "
                "integer, got \"2\""},
           Case{"{\"c\": ", "--config-file: invalid JSON at offset"},
       }) {
    Result<VerticalConfig> config =
        ParseVerticalConfig(c.json, "--config-file");
    ASSERT_FALSE(config.ok()) << c.json;
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(config.status().message().rfind(c.message, 0), 0u)
        << config.status().message();
  }
}

TEST(VerticalConfigTest, AFileReplacesTheDefaultsContainersWhole) {
  Result<VerticalConfig> defaults = ParseVerticalConfig(
      R"({"a": {"requests": {"cpu": {"base": "1"}, "memory": {"base": "1"}}},
          "b": {"requests": {"cpu": {"base": "2"}}}})",
      "d");
  Result<VerticalConfig> file = ParseVerticalConfig(
      R"({"a": {"requests": {"cpu": {"base": "5"}}}})", "f");
  ASSERT_TRUE(defaults.ok() && file.ok());
  VerticalConfig merged = OverlayVerticalConfig(*defaults, *file);
  EXPECT_EQ(merged.at("a").requests.size(), 1u);
  EXPECT_EQ(merged.at("a").requests.at("cpu").base_millis, 5000);
  EXPECT_EQ(merged.at("b").requests.at("cpu").base_millis, 2000);
}

TEST(VerticalConfigTest, WarnsOfWhatCpvaAcceptsButNeverMeans) {
  Result<VerticalConfig> config = ParseVerticalConfig(
      R"({"c": {"requests": {"cpu": {"base": "-1", "step": "1m",
                                     "coresPerStep": -2},
                             "memory": {"base": "1Mi", "step": "1Mi"}}}})",
      "f");
  ASSERT_TRUE(config.ok());
  const std::vector<std::string> warnings = VerticalConfigWarnings(*config);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0], "c requests cpu: base is negative (-1)");
  EXPECT_NE(warnings[1].find("coresPerStep is negative (-2)"),
            std::string::npos);
  EXPECT_NE(warnings[2].find("c requests memory: a step without"),
            std::string::npos);
  EXPECT_EQ(DescribeVerticalConfig(*config),
            "container c: requests cpu {base=-1 step=1m coresPerStep=-2}; "
            "container c: requests memory {base=1048576 step=1048576}");
}

}  // namespace
}  // namespace propscaler
