// `propscaler plan` end to end: the real binary on params, ConfigMap and
// node list files from tests/data/plan, checked through its output and exit
// codes.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "e2e/process.h"

namespace propscaler::e2e {
namespace {

const std::string kData =
    std::string(PROPSCALER_SOURCE_DIR) + "/tests/data/plan/";

struct PlanRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

PlanRun Plan(const std::vector<std::string>& flags) {
  std::vector<std::string> args = {"plan"};
  args.insert(args.end(), flags.begin(), flags.end());
  Process process(PROPSCALER_BINARY, args);
  std::optional<int> code = process.WaitForExit(std::chrono::seconds(30));
  return {code.value_or(-1), process.Output()};
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PlanTest, TableOfStepsOverClusterSizes) {
  PlanRun run = Plan({"--params=" + kData + "ladder.json", "--max-nodes=300"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output,
            "params: ladder: nodesToReplicas=[[1,1],[10,2],[100,3],[250,4]]\n"
            "cluster: 1 to 300 nodes of 4 cores, all schedulable; rows where "
            "replicas change, and anchors\n"
            "\n"
            "   nodes     cores  replicas  change  bound\n"
            "       1         4         1\n"
            "      10        40         2      +1\n"
            "     100       400         3      +1\n"
            "     250      1000         4      +1\n"
            "     300      1200         4\n");
}

TEST(PlanTest, LinearTableMarksTheClamps) {
  PlanRun run = Plan({"--params=" + kData + "linear.json", "--cores-per-node=8",
                      "--max-nodes=30"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "nodes of 8 cores")) << run.output;
  EXPECT_TRUE(Contains(run.output,
                       "       2        16         2      +1  "
                       "preventSinglePointFailure floor\n"))
      << run.output;
  // 11 nodes have 88 cores: 6 replicas, capped at max 5.
  EXPECT_TRUE(Contains(run.output, "      11        88         5" +
                                       std::string(8, ' ') + "  max\n"))
      << run.output;
}

// Params that count pods preview with --pods-per-node: 30 pods a node,
// 100 pods a replica, 2 to 6 replicas.
TEST(PlanTest, PodParamsPreviewWithPodsPerNode) {
  PlanRun run = Plan({"--params=" + kData + "pods.json", "--max-nodes=30",
                      "--pods-per-node=30"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output,
            "params: linear: podsPerReplica=100 min=2 max=6\n"
            "cluster: 1 to 30 nodes of 4 cores and 30 counted pods, all "
            "schedulable; rows where replicas change, and anchors\n"
            "\n"
            "   nodes     cores      pods  replicas  change  bound\n"
            "       1         4        30         2          min\n"
            "       4        16       120         2\n"
            "       7        28       210         3      +1\n"
            "      10        40       300         3\n"
            "      11        44       330         4      +1\n"
            "      14        56       420         5      +1\n"
            "      17        68       510         6      +1\n"
            "      21        84       630         6          max\n"
            "      30       120       900         6          max\n");
  PlanRun without = Plan({"--params=" + kData + "pods.json"});
  EXPECT_EQ(without.exit_code, 2) << without.output;
  EXPECT_TRUE(Contains(without.output, "--pods-per-node=N")) << without.output;
}

TEST(PlanTest, CountsANodeList) {
  PlanRun run = Plan(
      {"--params=" + kData + "linear.json", "--nodes=" + kData + "nodes.json"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "nodes.json: 8 listed\n")) << run.output;
  EXPECT_TRUE(Contains(run.output, "counted: 8 nodes, 53 cores\n"));
  EXPECT_TRUE(Contains(run.output, "schedulable: 6 nodes, 34 cores\n"));
  EXPECT_TRUE(Contains(run.output, "replicas: 3\n")) << run.output;
}

TEST(PlanTest, NodeLabelsSelectTheCountedNodes) {
  PlanRun run =
      Plan({"--params=" + kData + "linear.json",
            "--nodes=" + kData + "nodes.json", "--nodelabels=pool=a"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "8 listed, 6 match --nodelabels=pool=a\n"))
      << run.output;
  EXPECT_TRUE(Contains(run.output, "schedulable: 5 nodes, 18 cores\n"));
  EXPECT_TRUE(Contains(run.output, "replicas: 2\n")) << run.output;
}

TEST(PlanTest, ExcludedTaintsMakeNodesNotSchedulable) {
  // pool-b-1, 16 cores, is tainted virtual-kubelet.io/provider:NoSchedule.
  PlanRun run = Plan({"--params=" + kData + "linear.json",
                      "--nodes=" + kData + "nodes.json",
                      "--exclude-node-taints=virtual-kubelet.io/provider"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "counted: 8 nodes, 53 cores\n"));
  EXPECT_TRUE(Contains(run.output,
                       "schedulable: 5 nodes, 18 cores (not tainted "
                       "virtual-kubelet.io/provider)\n"))
      << run.output;
  EXPECT_TRUE(Contains(run.output, "replicas: 2\n")) << run.output;

  run = Plan({"--params=" + kData + "linear.json",
              "--nodes=" + kData + "nodes.json",
              "--exclude_node_taints=virtual-kubelet.io/provider:NoExecute"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "schedulable: 6 nodes, 34 cores ("))
      << run.output;
  EXPECT_TRUE(Contains(run.output, "replicas: 3\n")) << run.output;

  run = Plan({"--params=" + kData + "linear.json",
              "--nodes=" + kData + "nodes.json", "--exclude-node-taints=a:No"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(Contains(run.output,
                       "propscaler plan: --exclude-node-taints: \"a:No\": "
                       "unknown effect \"No\""))
      << run.output;
}

TEST(PlanTest, ReadsTheParamsOfAConfigMapJson) {
  PlanRun run = Plan({"--configmap-json=" + kData + "configmap.json",
                      "--nodes=" + kData + "nodes.json"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "params: ladder: coresToReplicas="))
      << run.output;
  EXPECT_TRUE(Contains(run.output, "replicas: 2\n")) << run.output;
}

TEST(PlanTest, SvgChart) {
  PlanRun run = Plan({"--params=" + kData + "linear.json", "--format=svg"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(run.output.starts_with("<svg ")) << run.output.substr(0, 200);
  EXPECT_TRUE(run.output.ends_with("</svg>\n"));
  EXPECT_TRUE(Contains(run.output, "<polyline "));
  EXPECT_TRUE(Contains(run.output, ">max 5</text>"));
}

TEST(PlanTest, InvalidParamsNameTheFileAndField) {
  PlanRun run = Plan({"--params=" + kData + "bad-params.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(
      Contains(run.output, "propscaler plan: " + kData + "bad-params.json: "))
      << run.output;
  EXPECT_TRUE(Contains(run.output, "max")) << run.output;
}

TEST(PlanTest, InvalidNodeListNamesTheFileAndField) {
  PlanRun run = Plan({"--params=" + kData + "linear.json",
                      "--nodes=" + kData + "bad-nodes.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(Contains(run.output, kData + "bad-nodes.json: items[0]"))
      << run.output;
}

TEST(PlanTest, BadFlagsExit2WithUsage) {
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{
           {},
           {"--params=" + kData + "linear.json",
            "--configmap-json=" + kData + "configmap.json"},
           {"--params=" + kData + "linear.json", "--format=png"},
           {"--params=" + kData + "linear.json", "--max-nodes=0"},
           {"--params=" + kData + "linear.json", "--cores-per-node=four"},
           {"--params=" + kData + "linear.json", "--nodelabels=a=b"},
           {"--params=" + kData + "linear.json", "--exclude-node-taints=a"},
           {"--params=" + kData + "linear.json", "--bogus"},
           {"--params=" + kData + "missing.json"}}) {
    PlanRun run = Plan(flags);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_TRUE(Contains(run.output, "propscaler plan: ")) << run.output;
  }
}

}  // namespace
}  // namespace propscaler::e2e

namespace propscaler::e2e {
namespace {

TEST(PlanVerticalTest, TableOfEachResourceOverClusterSizes) {
  PlanRun run = Plan({"--vertical-config=" + kData + "vertical-coredns.json",
                      "--max-nodes=3000"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "coredns requests.cpu"));
  // 50 nodes of 4 cores: 100m + 10m * ceil(200 / 16); 70Mi + 1Mi * 5.
  EXPECT_TRUE(Contains(run.output,
                       "      50       200                  "
                       "230m          78643200 (75Mi)\n"))
      << run.output;
  // The rows where a max is first reached: 1 core at 357 nodes, 340Mi at
  // 2,691.
  EXPECT_TRUE(Contains(run.output, "     357      1428                     1"))
      << run.output;
  EXPECT_TRUE(Contains(run.output, "    2691     10764"));
}

TEST(PlanVerticalTest, SvgHasAPanelPerResource) {
  PlanRun run = Plan(
      {"--vertical-config=" + kData + "vertical-coredns.json", "--format=svg"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(run.output.starts_with("<svg "));
  size_t polylines = 0;
  for (size_t at = run.output.find("<polyline"); at != std::string::npos;
       at = run.output.find("<polyline", at + 1)) {
    ++polylines;
  }
  EXPECT_EQ(polylines, 2u);
  EXPECT_TRUE(Contains(run.output, "coredns requests.memory"));
}

TEST(PlanVerticalTest, BadInputSaysWhatIsWrong) {
  PlanRun run = Plan({"--vertical-config=" + kData + "vertical-coredns.json",
                      "--nodes=" + kData + "nodes.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(Contains(run.output, "it does not take --nodes")) << run.output;
  run = Plan({"--vertical-config=" + kData + "configmap.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(Contains(run.output,
                       "configmap.json: apiVersion: expected a JSON object "
                       "with requests or limits, got \"v1\""))
      << run.output;
}

}  // namespace
}  // namespace propscaler::e2e
