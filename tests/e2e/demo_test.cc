// The demos as a newcomer runs them (deploy/demo/*.sh): each prints its
// status page's URL, and the page, fetched while the demo runs, draws the
// run; the demo then ends by itself with exit 0.
#include <gtest/gtest.h>

#include <filesystem>

#include "e2e/chromium.h"
#include "e2e/process.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

// A demo script run with the build under test and its page on `port`.
std::unique_ptr<Process> RunDemo(const std::string& script, int port,
                                 std::vector<std::string> env) {
  env.push_back(
      "BUILD_DIR=" +
      std::filesystem::path(PropscalerBinary()).parent_path().string());
  env.push_back("DEMO_STATUS_PORT=" + std::to_string(port));
  return std::make_unique<Process>(
      "/bin/bash",
      std::vector<std::string>{std::string(PROPSCALER_SOURCE_DIR) +
                               "/deploy/demo/" + script},
      env);
}

// /status's body once `done` holds for it, within `timeout`; else the last.
std::string StatusPageOnce(int port,
                           const std::function<bool(const std::string&)>& done,
                           seconds timeout) {
  std::string body;
  WaitUntil(
      [&] {
        httplib::Result got = HealthGet(port, "/status");
        if (got && got->status == 200) body = got->body;
        return done(body);
      },
      timeout);
  return body;
}

// The demo ended by itself with exit 0 within `timeout`, after printing
// its page's URL.
void ExpectEndedAfterPrintingItsUrl(Process* demo, int port, seconds timeout) {
  const std::optional<int> code = demo->WaitForExit(timeout);
  ASSERT_TRUE(code.has_value()) << demo->Report();
  EXPECT_EQ(*code, 0) << demo->Report();
  EXPECT_NE(demo->Output().find("demo: open http://127.0.0.1:" +
                                std::to_string(port) + "/status"),
            std::string::npos)
      << demo->Report();
}

TEST(DemoTest, TheReplicaDemoShowsReplicasFollowingNodesOnItsPage) {
  const int port = FreePort();
  auto demo = RunDemo("run.sh", port, {"DEMO_SECONDS=15"});
  // The cluster churns: the page draws more than one node count, and the
  // replicas set for them.
  const std::string page = StatusPageOnce(
      port,
      [](const std::string& body) {
        return HasPictureLine(body, "nodes", "[0-9]+( [0-9]+)+") &&
               HasPictureLine(body, "deployment/coredns", "[0-9]+( [0-9]+)*");
      },
      seconds(30));
  EXPECT_TRUE(HasPictureLine(page, "nodes", "[0-9]+( [0-9]+)+"))
      << page << demo->Report();
  EXPECT_NE(page.find("data-now-nodes="), std::string::npos) << page;
  ExpectEndedAfterPrintingItsUrl(demo.get(), port, seconds(40));
}

TEST(DemoTest, TheNodeScaleDemoShowsItsScaleUpAndRemovalsOnItsPage) {
  const int port = FreePort();
  auto demo = RunDemo("node-scale.sh", port, {"DEMO_HOLD_SECONDS=10"});
  const std::string page = StatusPageOnce(
      port,
      [](const std::string& body) {
        return body.find("data-mark=\"removed: ") != std::string::npos;
      },
      seconds(60));
  EXPECT_NE(page.find("data-mark=\"scale-up: {small 0-&gt;"), std::string::npos)
      << page << demo->Report();
  EXPECT_NE(page.find("data-mark=\"removed: "), std::string::npos) << page;
  EXPECT_TRUE(HasPictureLine(page, "pending pods", "([0-9]+ )*6( [0-9]+)*"))
      << page;
  ExpectEndedAfterPrintingItsUrl(demo.get(), port, seconds(60));
}

}  // namespace
}  // namespace propscaler::e2e
