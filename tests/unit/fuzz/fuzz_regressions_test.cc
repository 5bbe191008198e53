// Replays every input under tests/fuzz/regressions/<target>/ (inputs that
// once crashed a fuzzer) and tests/fuzz/corpus/<target>/ (the seeds) through
// the fuzz targets' functions, so the normal build keeps them fixed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_targets.h"

namespace propscaler::fuzz {
namespace {

struct Target {
  const char* name;
  void (*run)(const uint8_t*, size_t);
};

std::vector<std::filesystem::path> Inputs(const std::string& target) {
  std::vector<std::filesystem::path> files;
  for (const char* kind : {"regressions", "corpus"}) {
    const std::filesystem::path dir =
        std::filesystem::path(PROPSCALER_SOURCE_DIR) / "tests/fuzz" / kind /
        target;
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  return files;
}

class FuzzRegressionTest : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzRegressionTest, EveryKeptInputRunsCleanly) {
  const std::vector<std::filesystem::path> files = Inputs(GetParam().name);
  EXPECT_FALSE(files.empty()) << "no seed corpus for " << GetParam().name;
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.string());
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
    GetParam().run(reinterpret_cast<const uint8_t*>(bytes.data()),
                   bytes.size());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Targets, FuzzRegressionTest,
    ::testing::Values(
        Target{"params", &FuzzParams}, Target{"quantity", &FuzzQuantity},
        Target{"kubeconfig", &FuzzKubeconfig}, Target{"decode", &FuzzDecode},
        Target{"flags", &FuzzFlags}, Target{"node_groups", &FuzzNodeGroups},
        Target{"capacity_buffer", &FuzzCapacityBuffer},
        Target{"vertical_config", &FuzzVerticalConfig}),
    [](const ::testing::TestParamInfo<Target>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace propscaler::fuzz
