// propscaler_nodescale_memory fails a broken build on the real server: with
// propscaler made unable to give a burst the nodes its pods need (a wrapper
// adding --max-nodes-total, the nodes there plus two, where the burst needs
// three), the harness exits 1 and its result file names the group that
// settled short. The harness starts a kube-apiserver of its own.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "e2e/process.h"

namespace propscaler::envtest {
namespace {

TEST(BenchHarnessRealServerTest, NodeScaleMemoryFailsABurstLeftShort) {
  e2e::TempDir dir;
  const std::string json = dir.path() + "/result.json";
  // 5 nodes; a burst of 100 pods of 100m needs 3 new 4-cpu nodes.
  e2e::Process harness(
      PROPSCALER_NODESCALE_MEMORY,
      {"--server=real", "--nodes=5", "--pods=50", "--loops=1", "--rest_loops=1",
       "--bursts=1", "--burst_pods=100",
       "--propscaler=" + e2e::WrapperAddingFlag(dir, PROPSCALER_BINARY,
                                                "--max-nodes-total=7"),
       "--json_out=" + json});
  const std::optional<int> code =
      harness.WaitForExit(std::chrono::seconds(400));
  ASSERT_TRUE(code.has_value()) << harness.Report();
  EXPECT_EQ(*code, 1) << harness.Output();

  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse(text.str().c_str());
  ASSERT_FALSE(doc.HasParseError()) << text.str();
  EXPECT_FALSE(doc["passed"].GetBool());
  ASSERT_TRUE(doc["failures"].IsArray() && !doc["failures"].Empty());
  const std::string failure = doc["failures"][0].GetString();
  EXPECT_NE(failure.find("settled at 2 nodes; its 100 pods need 3"),
            std::string::npos)
      << failure;
}

}  // namespace
}  // namespace propscaler::envtest
