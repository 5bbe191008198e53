// Cluster Autoscaler's status YAML: its worked example's structure
// (clusterstate/utils/status_test.yaml), the rules of each status value,
// and transition times kept while a status stays.
#include "nodescale/report/ca_status.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

// 2023-11-24 04:28:19.546750398 UTC, CA's example's time.
const TimePoint kNow =
    TimePoint() +
    std::chrono::duration_cast<TimePoint::duration>(
        seconds(1700800099) + std::chrono::nanoseconds(546750398));

// The counts of CA's worked example (without suspended, which no provider
// here reports).
CaNodeCounts ExampleCounts() {
  return {.being_deleted = 1,
          .ready = 4,
          .not_started = 3,
          .unready = 2,
          .resource_unready = 1,
          .unregistered = 2,
          .long_unregistered = 1};
}

CaStatusInput ExampleInput() {
  CaStatusInput input{.now = kNow, .cluster = ExampleCounts()};
  input.groups.push_back(
      {.name = "sample-node-group",
       .min_size = 2,
       .max_size = 12,
       .target = 8,
       .counts = ExampleCounts(),
       .backoff = BackoffReason{"QUOTA_EXCEEDED", "Quota 'CPUS' exceeded."},
       .candidates = 2});
  return input;
}

TEST(CaStatusTest, TheYamlHasCaStructureAndValues) {
  const CaStatus status = BuildCaStatus(ExampleInput(), CaStatus());
  const YAML::Node yaml = YAML::Load(RenderCaStatusYaml(status));
  EXPECT_EQ(yaml["autoscalerStatus"].as<std::string>(), "Running");
  EXPECT_EQ(yaml["time"].as<std::string>(),
            "2023-11-24 04:28:19.546750398 +0000 UTC");
  const YAML::Node health = yaml["clusterWide"]["health"];
  EXPECT_EQ(health["status"].as<std::string>(), "Healthy");
  EXPECT_EQ(health["lastProbeTime"].as<std::string>(), "2023-11-24T04:28:19Z");
  const YAML::Node counts = health["nodeCounts"];
  EXPECT_EQ(counts["registered"]["total"].as<int>(), 10);
  EXPECT_EQ(counts["registered"]["ready"].as<int>(), 4);
  EXPECT_EQ(counts["registered"]["notStarted"].as<int>(), 3);
  EXPECT_EQ(counts["registered"]["beingDeleted"].as<int>(), 1);
  EXPECT_EQ(counts["registered"]["suspended"].as<int>(), 0);
  EXPECT_EQ(counts["registered"]["unready"]["total"].as<int>(), 2);
  EXPECT_EQ(counts["registered"]["unready"]["resourceUnready"].as<int>(), 1);
  EXPECT_EQ(counts["longUnregistered"].as<int>(), 1);
  EXPECT_EQ(counts["unregistered"].as<int>(), 2);
  EXPECT_EQ(yaml["clusterWide"]["scaleUp"]["status"].as<std::string>(),
            "NoActivity");
  EXPECT_EQ(yaml["clusterWide"]["scaleDown"]["status"].as<std::string>(),
            "CandidatesPresent");
  EXPECT_EQ(yaml["clusterWide"]["scaleDown"]["candidates"].as<int>(), 2);

  ASSERT_TRUE(yaml["nodeGroups"].IsSequence());
  ASSERT_EQ(yaml["nodeGroups"].size(), 1u);
  const YAML::Node group = yaml["nodeGroups"][0];
  EXPECT_EQ(group["name"].as<std::string>(), "sample-node-group");
  EXPECT_EQ(group["health"]["status"].as<std::string>(), "Healthy");
  EXPECT_EQ(group["health"]["cloudProviderTarget"].as<int>(), 8);
  EXPECT_EQ(group["health"]["minSize"].as<int>(), 2);
  EXPECT_EQ(group["health"]["maxSize"].as<int>(), 12);
  EXPECT_EQ(group["health"]["nodeCounts"]["registered"]["total"].as<int>(), 10);
  EXPECT_EQ(group["scaleUp"]["status"].as<std::string>(), "Backoff");
  EXPECT_EQ(group["scaleUp"]["backoffInfo"]["errorCode"].as<std::string>(),
            "QUOTA_EXCEEDED");
  EXPECT_EQ(group["scaleUp"]["backoffInfo"]["errorMessage"].as<std::string>(),
            "Quota 'CPUS' exceeded.");
  EXPECT_EQ(group["scaleDown"]["status"].as<std::string>(),
            "CandidatesPresent");
  EXPECT_EQ(group["scaleDown"]["candidates"].as<int>(), 2);
}

TEST(CaStatusTest, KeysAreSortedAndZerosOmittedAsCaWritesThem) {
  CaStatusInput input = ExampleInput();
  input.cluster = {.ready = 3};
  input.groups[0].counts = {.ready = 3};
  input.groups[0].target = 3;
  input.groups[0].backoff.reset();
  input.groups[0].candidates = 0;
  const std::string yaml = RenderCaStatusYaml(BuildCaStatus(input, CaStatus()));
  EXPECT_EQ(yaml.find("beingDeleted"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("candidates"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("    backoffInfo: {}\n"), std::string::npos) << yaml;
  // No scale-down pass yet: its probe is null.
  EXPECT_NE(yaml.find("  scaleDown:\n    lastProbeTime: null\n"),
            std::string::npos)
      << yaml;
  EXPECT_LT(yaml.find("autoscalerStatus"), yaml.find("clusterWide"));
  EXPECT_LT(yaml.find("clusterWide"), yaml.find("nodeGroups"));
  EXPECT_LT(yaml.find("nodeGroups"), yaml.find("\ntime: "));
  EXPECT_NE(yaml.find("nodeGroups:\n- health:\n    cloudProviderTarget: 3\n"),
            std::string::npos)
      << yaml;
}

TEST(CaStatusTest, ScaleUpInProgressWinsAndMakesTheClusterInProgress) {
  CaStatusInput input = ExampleInput();
  input.groups[0].upcoming = 2;
  const CaStatus status = BuildCaStatus(input, CaStatus());
  EXPECT_EQ(status.groups[0].scale_up.status, "InProgress");
  EXPECT_FALSE(status.groups[0].backoff);
  EXPECT_EQ(status.scale_up.status, "InProgress");
}

TEST(CaStatusTest, AGroupShortOfReadyNodesIsUnhealthy) {
  CaStatusInput input = ExampleInput();
  // Target 10, 0 coming: 10 expected, 2 Ready; 8 unjustified > 3 and > 45%.
  input.groups[0].target = 10;
  input.groups[0].counts = {.ready = 2, .unready = 8};
  input.groups[0].backoff.reset();
  const CaStatus status = BuildCaStatus(input, CaStatus());
  EXPECT_EQ(status.groups[0].health.status, "Unhealthy");
  EXPECT_EQ(status.groups[0].scale_up.status, "Unhealthy");
  input.cluster_healthy = false;
  EXPECT_EQ(BuildCaStatus(input, CaStatus()).health.status, "Unhealthy");
}

TEST(CaStatusTest, AGroupWithNoNodeHasNullProbesAndIsHealthyAtZero) {
  CaStatusInput input = ExampleInput();
  input.groups[0] = {.name = "empty", .max_size = 5};
  const CaStatus status = BuildCaStatus(input, CaStatus());
  EXPECT_EQ(status.groups[0].health.status, "Healthy");
  EXPECT_FALSE(status.groups[0].health.last_probe);
  EXPECT_EQ(status.groups[0].scale_up.status, "NoActivity");
}

TEST(CaStatusTest, TransitionTimesStayWhileTheStatusStays) {
  CaStatusInput input = ExampleInput();
  input.scale_down_probe = kNow;
  const CaStatus first = BuildCaStatus(input, CaStatus());
  input.now = kNow + minutes(5);
  input.scale_down_probe = input.now;
  const CaStatus second = BuildCaStatus(input, first);
  EXPECT_EQ(second.health.last_transition, kNow);
  EXPECT_EQ(second.health.last_probe, kNow + minutes(5));
  EXPECT_EQ(second.groups[0].scale_up.last_transition, kNow);
  // The backoff over: a new status, a new transition.
  input.groups[0].backoff.reset();
  input.now = kNow + minutes(10);
  const CaStatus third = BuildCaStatus(input, second);
  EXPECT_EQ(third.groups[0].scale_up.status, "NoActivity");
  EXPECT_EQ(third.groups[0].scale_up.last_transition, kNow + minutes(10));
  EXPECT_EQ(third.groups[0].health.last_transition, kNow);
}

TEST(CaStatusTest, ALongBackoffMessageIsCutAsCaCutsIt) {
  CaStatusInput input = ExampleInput();
  input.groups[0].backoff->message = std::string(600, 'x');
  const CaStatus status = BuildCaStatus(input, CaStatus());
  const std::string& message = status.groups[0].backoff->message;
  EXPECT_EQ(message.size(), 500u);
  EXPECT_EQ(message.substr(489), "<truncated>");
}

TEST(CaStatusTest, GoTimeStringDropsTrailingZeros) {
  EXPECT_EQ(GoTimeString(TimePoint() + seconds(1703116800)),
            "2023-12-21 00:00:00 +0000 UTC");
  EXPECT_EQ(GoTimeString(TimePoint() + seconds(1703116800) +
                         std::chrono::milliseconds(250)),
            "2023-12-21 00:00:00.25 +0000 UTC");
}

TEST(CaStatusTest, NamesWithQuotesAndNewlinesStayOneYamlString) {
  CaStatusInput input = ExampleInput();
  input.groups[0].backoff->message = "a \"quoted\"\nline: here";
  const YAML::Node yaml =
      YAML::Load(RenderCaStatusYaml(BuildCaStatus(input, CaStatus())));
  EXPECT_EQ(yaml["nodeGroups"][0]["scaleUp"]["backoffInfo"]["errorMessage"]
                .as<std::string>(),
            "a \"quoted\"\nline: here");
}

}  // namespace
}  // namespace propscaler::nodescale
