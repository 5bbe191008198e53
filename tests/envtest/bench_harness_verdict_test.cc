// The benchmark harnesses fail a broken build. Each runs a propscaler made
// deliberately wrong (the binary as built behind a wrapper that adds one
// flag: a scale-up one node short, a scale-down one node short, a pod
// selector that counts nothing, a burst left short of the nodes its pods
// need) and must exit 1 naming what is wrong in its result file; the same
// small run of the binary as built passes. Here rather than in the e2e
// tests because the node-scale memory harness needs the real server, and
// the harnesses are built and run without the sanitizers. Each harness
// starts a server of its own.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/process.h"

namespace propscaler::envtest {
namespace {

struct HarnessRun {
  int exit_code = -1;
  std::string output;
  bool passed = false;  // the result file's verdict
  std::string failures;
};

HarnessRun RunHarness(
    const std::string& harness, std::vector<std::string> args,
    const e2e::TempDir& dir,
    std::chrono::seconds timeout = std::chrono::seconds(100)) {
  const std::string json = dir.path() + "/result.json";
  args.push_back("--json_out=" + json);
  e2e::Process process(harness, args);
  HarnessRun run;
  run.exit_code = process.WaitForExit(timeout).value_or(-1);
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

HarnessRun RunBroken(const std::string& harness, std::vector<std::string> args,
                     const std::string& flag, const e2e::TempDir& dir,
                     std::chrono::seconds timeout = std::chrono::seconds(100)) {
  args.push_back("--propscaler=" +
                 e2e::WrapperAddingFlag(dir, PROPSCALER_BINARY, flag));
  return RunHarness(harness, args, dir, timeout);
}

// `harness` with `args` passes on the binary as built and fails, naming
// `failure`, on the binary broken by `flag`.
void ExpectFailsOnlyTheBrokenBuild(const std::string& harness,
                                   const std::vector<std::string>& args,
                                   const std::string& flag,
                                   const std::string& failure) {
  e2e::TempDir dir;
  HarnessRun good = RunHarness(harness, args, dir);
  EXPECT_EQ(good.exit_code, 0) << good.output;
  EXPECT_TRUE(good.passed) << good.failures;

  HarnessRun bad = RunBroken(harness, args, flag, dir);
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.failures.find(failure), std::string::npos)
      << bad.failures << bad.output;
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

// On the real server: 5 nodes, and a burst of 100 pods of 100m that needs 3
// new 4-cpu nodes, with propscaler allowed 2 (--max-nodes-total=7). The
// run as built is the 50-node one of bench/README.md, not repeated here.
TEST(BenchHarnessVerdictTest, NodeScaleMemoryFailsABurstLeftShort) {
  e2e::TempDir dir;
  HarnessRun bad =
      RunBroken(PROPSCALER_NODESCALE_MEMORY,
                {"--server=real", "--nodes=5", "--pods=50", "--loops=1",
                 "--rest_loops=1", "--bursts=1", "--burst_pods=100"},
                "--max-nodes-total=7", dir, std::chrono::seconds(400));
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.failures.find("settled at 2 nodes; its 100 pods need 3"),
            std::string::npos)
      << bad.failures;
}

}  // namespace
}  // namespace propscaler::envtest
