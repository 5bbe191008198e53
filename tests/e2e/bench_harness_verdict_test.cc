// The benchmark harnesses fail a broken build. Each runs a propscaler made
// deliberately wrong (the real binary behind a wrapper that adds one flag:
// a scale-up one node short, a scale-down one node short, a pod selector
// that counts nothing) and must exit 1 naming what is wrong, with the
// verdict in its result file; the same small run of the binary as built
// passes.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/process.h"

namespace propscaler::e2e {
namespace {

struct HarnessRun {
  int exit_code = -1;
  std::string output;
  bool passed = false;  // the result file's verdict
  std::string failures;
};

HarnessRun RunHarness(const std::string& harness, std::vector<std::string> args,
                      const TempDir& dir) {
  const std::string json = dir.path() + "/result.json";
  args.push_back("--json_out=" + json);
  Process process(harness, args);
  HarnessRun run;
  run.exit_code = process.WaitForExit(std::chrono::seconds(100)).value_or(-1);
  run.output = process.Output();
  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse(text.str().c_str());
  if (!doc.HasParseError() && doc.IsObject() && doc.HasMember("passed")) {
    run.passed = doc["passed"].GetBool();
    for (const auto& failure : doc["failures"].GetArray()) {
      run.failures += std::string(failure.GetString()) + "\n";
    }
  }
  return run;
}

// `harness` with `args` passes on the binary as built and fails, naming
// `failure`, on the binary broken by `flag`.
void ExpectFailsOnlyTheBrokenBuild(const std::string& harness,
                                   const std::vector<std::string>& args,
                                   const std::string& flag,
                                   const std::string& failure) {
  TempDir dir;
  HarnessRun good = RunHarness(harness, args, dir);
  EXPECT_EQ(good.exit_code, 0) << good.output;
  EXPECT_TRUE(good.passed) << good.failures;

  std::vector<std::string> broken = args;
  broken.push_back("--propscaler=" +
                   WrapperAddingFlag(dir, PROPSCALER_BINARY, flag));
  HarnessRun bad = RunHarness(harness, broken, dir);
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.failures.find(failure), std::string::npos) << bad.failures;
}

TEST(BenchHarnessVerdictTest, RunOnceFailsAScaleUpOneNodeShort) {
  ExpectFailsOnlyTheBrokenBuild(PROPSCALER_RUNONCE,
                                {"--shape=scale-up", "--nodes=200"},
                                "--max-nodes-total=199", "199 nodes, not 200");
}

TEST(BenchHarnessVerdictTest, RunOnceFailsAScaleDownOneNodeShort) {
  ExpectFailsOnlyTheBrokenBuild(
      PROPSCALER_RUNONCE, {"--shape=scale-down", "--nodes=100"},
      "--max-scale-down-parallelism=59", "59 nodes, not 60");
}

TEST(BenchHarnessVerdictTest, PodCountFailsAPropscalerThatCountsNothing) {
  ExpectFailsOnlyTheBrokenBuild(
      PROPSCALER_POD_COUNT_MEMORY,
      {"--pods=3000", "--pods_per_replica=1000", "--trials=2",
       "--first_scale_timeout_seconds=20"},
      "--pod-selector=app=nothing", "replicas, not 3,");
}

}  // namespace
}  // namespace propscaler::e2e
