// Every preset in params/ is a valid --default-params value: each file goes
// through the same parser the flag does, and a few presets are checked
// against the replica counts they are documented to give.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/files.h"
#include "replicas/arithmetic.h"
#include "replicas/params.h"

namespace propscaler {
namespace {

const std::filesystem::path kParamsDir =
    std::filesystem::path(PROPSCALER_SOURCE_DIR) / "params";

std::vector<std::filesystem::path> PresetFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kParamsDir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Params LoadPreset(const std::string& name) {
  Result<std::string> text = ReadFile((kParamsDir / name).string());
  EXPECT_TRUE(text.ok()) << text.status().message();
  if (!text.ok()) return {};
  Result<std::map<std::string, std::string>> data = DefaultParamsToData(*text);
  EXPECT_TRUE(data.ok()) << name << ": " << data.status().message();
  if (!data.ok()) return {};
  Result<Params> params = ParseParams(*data);
  EXPECT_TRUE(params.ok()) << name << ": " << params.status().message();
  return params.ok() ? *params : Params{};
}

ClusterCounts AllSchedulable(int64_t nodes, int64_t cores) {
  return {nodes, nodes, cores, cores};
}

TEST(ParamsPresetsTest, EveryFileIsAValidDefaultParamsValue) {
  const std::vector<std::filesystem::path> files = PresetFiles();
  ASSERT_GE(files.size(), 5u) << "presets expected in " << kParamsDir;
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.string());
    EXPECT_EQ(file.extension(), ".json");
    LoadPreset(file.filename().string());
  }
}

TEST(ParamsPresetsTest, CoreDnsIsTheDnsAutoscalerDefault) {
  const Params params = LoadPreset("coredns.json");
  EXPECT_EQ(std::get<LinearParams>(params),
            (LinearParams{.cores_per_replica = 256,
                          .nodes_per_replica = 16,
                          .prevent_single_point_failure = true,
                          .include_unschedulable_nodes = true}));
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(1, 4)), 1);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(2, 8)), 2);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(100, 400)), 7);
}

TEST(ParamsPresetsTest, CalicoTyphaLadderFollowsNodes) {
  const Params params = LoadPreset("calico-typha.json");
  ASSERT_TRUE(std::holds_alternative<LadderParams>(params));
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(1, 4)), 1);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(9, 36)), 1);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(10, 40)), 2);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(999, 4000)), 5);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(5000, 20000)), 8);
}

TEST(ParamsPresetsTest, LadderExampleTakesTheLargerOfCoresAndNodes) {
  const Params params = LoadPreset("ladder-example.json");
  ASSERT_TRUE(std::holds_alternative<LadderParams>(params));
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(1, 4)), 1);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(2, 8)), 2);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(100, 400)), 3);
  EXPECT_EQ(DesiredReplicas(params, AllSchedulable(1000, 4000)), 10);
}

}  // namespace
}  // namespace propscaler
