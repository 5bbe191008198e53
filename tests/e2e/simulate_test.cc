// `propscaler simulate` end to end: the real binary on snapshot files from
// tests/data/simulate, checked through its JSON output and exit codes.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "e2e/process.h"

namespace propscaler::e2e {
namespace {

const std::string kData =
    std::string(PROPSCALER_SOURCE_DIR) + "/tests/data/simulate/";

struct SimulateRun {
  int exit_code = -1;
  std::string output;
};

SimulateRun Simulate(std::vector<std::string> extra,
                     const std::string& groups = "groups.json") {
  std::vector<std::string> args = {
      "simulate", "--nodes=" + kData + "nodes.json",
      "--pods=" + kData + "pods.json", "--node-groups=" + kData + groups};
  args.insert(args.end(), extra.begin(), extra.end());
  Process process(PROPSCALER_BINARY, args);
  std::optional<int> code = process.WaitForExit(std::chrono::seconds(30));
  return {code.value_or(-1), process.Output()};
}

// The JSON object in the output (the binary prints nothing else).
rapidjson::Document Json(const SimulateRun& run) {
  rapidjson::Document doc;
  doc.Parse(run.output.c_str());
  EXPECT_FALSE(doc.HasParseError()) << run.output;
  return doc;
}

std::vector<std::string> Strings(const rapidjson::Value& array) {
  std::vector<std::string> out;
  for (const auto& v : array.GetArray()) out.push_back(v.GetString());
  return out;
}

TEST(SimulateTest, PlansScaleUpUnschedulableAndScaleDown) {
  SimulateRun run = Simulate({});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  rapidjson::Document doc = Json(run);
  ASSERT_TRUE(doc.IsObject());

  const auto& up = doc["scaleUp"];
  ASSERT_EQ(up.Size(), 2u) << run.output;
  // least-waste: big-b wastes less than the gpu node, so it comes first.
  EXPECT_STREQ(up[0]["nodeGroup"].GetString(), "big-b");
  EXPECT_EQ(up[0]["delta"].GetInt(), 2);  // from zero, one 6-cpu pod per node
  EXPECT_EQ(Strings(up[0]["pods"]),
            (std::vector<std::string>{"default/big-1", "default/big-2"}));
  EXPECT_STREQ(up[1]["nodeGroup"].GetString(), "gpu-g");
  EXPECT_EQ(up[1]["delta"].GetInt(), 1);
  EXPECT_EQ(Strings(up[1]["pods"]),
            (std::vector<std::string>{"default/gpu-1"}));

  const auto& unschedulable = doc["unschedulable"];
  ASSERT_EQ(unschedulable.Size(), 1u) << run.output;
  EXPECT_STREQ(unschedulable[0]["pod"].GetString(), "default/huge");
  const auto& reasons = unschedulable[0]["reasons"];
  EXPECT_STREQ(reasons["small-a"].GetString(),
               "does not fit: insufficient cpu on an empty new node");
  EXPECT_STREQ(reasons["gpu-g"].GetString(),
               "taint nvidia.com/gpu=present:NoSchedule not tolerated");

  // Pending web-2 (1.5 cpu) fits small-a-2, so the simulation puts it there
  // first (CA's filter-out-schedulable): small-a-2 is no longer empty, and
  // the least utilized node goes first.
  const auto& down = doc["scaleDown"];
  ASSERT_EQ(down.Size(), 2u) << run.output;
  EXPECT_STREQ(down[0]["node"].GetString(), "small-a-4");
  EXPECT_STREQ(down[0]["nodeGroup"].GetString(), "small-a");
  EXPECT_STREQ(down[0]["reason"].GetString(), "underutilized");
  EXPECT_STREQ(down[1]["node"].GetString(), "small-a-2");
  EXPECT_STREQ(down[1]["reason"].GetString(), "underutilized");
}

TEST(SimulateTest, MaxNodesTotalLimitsAndIsReported) {
  SimulateRun run = Simulate({"--max-nodes-total=5"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  rapidjson::Document doc = Json(run);
  const auto& up = doc["scaleUp"];
  ASSERT_EQ(up.Size(), 1u) << run.output;
  EXPECT_EQ(up[0]["delta"].GetInt(), 1);
  const auto& unschedulable = doc["unschedulable"];
  ASSERT_EQ(unschedulable.Size(), 3u) << run.output;
  EXPECT_STREQ(unschedulable[0]["pod"].GetString(), "default/big-2");
  EXPECT_STREQ(unschedulable[0]["reasons"]["big-b"].GetString(),
               "limit reached: --max-nodes-total=5");
}

TEST(SimulateTest, PriorityExpanderAndThresholdFlags) {
  SimulateRun run = Simulate({"--expander=priority,least-waste",
                              "--scale-down-utilization-threshold=0.1"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  rapidjson::Document doc = Json(run);
  // big-* (50) before gpu-* (10).
  EXPECT_STREQ(doc["scaleUp"][0]["nodeGroup"].GetString(), "big-b");
  // At 10% no node qualifies: the only empty one is where pending web-2
  // will go.
  EXPECT_EQ(doc["scaleDown"].Size(), 0u) << run.output;
}

TEST(SimulateTest, TableOutputIsForPeople) {
  SimulateRun run = Simulate({"--output=table"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("big-b  +2 nodes for 2 pods"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("kept small-a-3: pod default/lonely has no "
                            "controller"),
            std::string::npos)
      << run.output;
}

TEST(SimulateTest, BadFileNamesTheFileAndTheField) {
  SimulateRun run = Simulate({}, "bad_groups.json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("bad_groups.json: nodeGroups[1].maxSize: want an "
                            "integer, got \"3\""),
            std::string::npos)
      << run.output;
}

TEST(SimulateTest, MissingFileAndBadFlagsExitTwo) {
  SimulateRun missing = Simulate({}, "no-such-file.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("no-such-file.json"), std::string::npos)
      << missing.output;
  SimulateRun bad_range = Simulate({"--cores-total=9:8"});
  EXPECT_EQ(bad_range.exit_code, 2);
  EXPECT_NE(bad_range.output.find("--cores-total=9:8: MIN is above MAX"),
            std::string::npos)
      << bad_range.output;
  SimulateRun bad_expander = Simulate({"--expander=cheapest"});
  EXPECT_EQ(bad_expander.exit_code, 2);
  EXPECT_NE(bad_expander.output.find("\"cheapest\" is unknown"),
            std::string::npos)
      << bad_expander.output;
}

// Three half-empty 16-cpu nodes whose pods fit one 8-cpu node of a cheaper
// group (tests/data/simulate/consolidation): multi-node consolidation
// replaces all three; past the pool's expireAfter (720h) expiry comes first.
TEST(SimulateTest, PreviewsDisruption) {
  const std::string dir = kData + "consolidation/";
  auto run_at = [&](const std::string& now) {
    Process process(PROPSCALER_BINARY,
                    {"simulate", "--nodes=" + dir + "nodes.json",
                     "--pods=" + dir + "pods.json",
                     "--node-groups=" + dir + "groups.json", "--now=" + now});
    std::optional<int> code = process.WaitForExit(std::chrono::seconds(30));
    return SimulateRun{code.value_or(-1), process.Output()};
  };
  SimulateRun day_two = run_at("2026-01-02T00:00:00Z");
  ASSERT_EQ(day_two.exit_code, 0) << day_two.output;
  rapidjson::Document doc = Json(day_two);
  const auto& commands = doc["disruption"];
  ASSERT_EQ(commands.Size(), 2u) << day_two.output;
  EXPECT_STREQ(commands[0]["method"].GetString(), "multi-node");
  EXPECT_STREQ(commands[0]["action"].GetString(), "replace");
  EXPECT_EQ(Strings(commands[0]["nodes"]),
            (std::vector<std::string>{"big-0", "big-1", "big-2"}));
  EXPECT_STREQ(commands[0]["replacement"]["nodeGroup"].GetString(), "small");
  EXPECT_EQ(commands[0]["replacement"]["count"].GetInt(), 1);
  EXPECT_DOUBLE_EQ(commands[0]["savingsPerHour"].GetDouble(), 2.7);
  EXPECT_STREQ(commands[1]["method"].GetString(), "single-node");
  EXPECT_TRUE(commands[1]["replacement"].IsNull());

  SimulateRun expired = run_at("2026-03-01T00:00:00Z");
  ASSERT_EQ(expired.exit_code, 0) << expired.output;
  rapidjson::Document later = Json(expired);
  EXPECT_STREQ(later["disruption"][0]["method"].GetString(), "expiry");

  // A policy/v1 budget with an empty selector covers every pod of its
  // namespace; allowing no disruption, it holds every node back.
  Process guarded(
      PROPSCALER_BINARY,
      {"simulate", "--nodes=" + dir + "nodes.json",
       "--pods=" + dir + "pods.json", "--node-groups=" + dir + "groups.json",
       "--pdbs=" + dir + "pdbs.json", "--now=2026-01-02T00:00:00Z"});
  ASSERT_EQ(guarded.WaitForExit(std::chrono::seconds(30)), 0)
      << guarded.Output();
  rapidjson::Document held = Json({0, guarded.Output()});
  EXPECT_EQ(held["disruption"].Size(), 0u) << guarded.Output();
  ASSERT_EQ(held["disruptionBlocked"].Size(), 3u) << guarded.Output();
  EXPECT_NE(std::string(held["disruptionBlocked"][0]["reason"].GetString())
                .find("PodDisruptionBudget default/everything allows no "
                      "disruption now"),
            std::string::npos)
      << guarded.Output();

  SimulateRun bad_now = run_at("yesterday");
  EXPECT_EQ(bad_now.exit_code, 2);
  EXPECT_NE(bad_now.output.find("--now=yesterday"), std::string::npos)
      << bad_now.output;
}

// tests/data/simulate/volumes: three StatefulSet pods, one with a claim
// bound to a zone-b PV, one with a WaitForFirstConsumer claim whose class
// provisions only in zone a, one whose claim is missing. With --volumes each
// goes where its volume is (and the last nowhere, saying why); without it
// the claims are not looked at and one node takes all three.
TEST(SimulateTest, VolumesPlacePodsInTheirZones) {
  const std::string dir = kData + "volumes/";
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "simulate", "--nodes=" + dir + "nodes.json",
        "--pods=" + dir + "pods.json", "--node-groups=" + dir + "groups.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    Process process(PROPSCALER_BINARY, args);
    std::optional<int> code = process.WaitForExit(std::chrono::seconds(30));
    return SimulateRun{code.value_or(-1), process.Output()};
  };
  SimulateRun with = run({"--volumes=" + dir + "volumes.json"});
  ASSERT_EQ(with.exit_code, 0) << with.output;
  rapidjson::Document doc = Json(with);
  std::map<std::string, std::vector<std::string>> pods_by_group;
  for (const auto& increase : doc["scaleUp"].GetArray()) {
    EXPECT_EQ(increase["delta"].GetInt(), 1) << with.output;
    pods_by_group[increase["nodeGroup"].GetString()] =
        Strings(increase["pods"]);
  }
  EXPECT_EQ(pods_by_group,
            (std::map<std::string, std::vector<std::string>>{
                {"zone-a", {"shop/db-1"}}, {"zone-b", {"shop/db-0"}}}))
      << with.output;
  const auto& unschedulable = doc["unschedulable"];
  ASSERT_EQ(unschedulable.Size(), 1u) << with.output;
  EXPECT_STREQ(unschedulable[0]["pod"].GetString(), "shop/db-2");
  EXPECT_STREQ(unschedulable[0]["reasons"]["zone-a"].GetString(),
               "persistentvolumeclaim \"data-db-2\" not found");

  SimulateRun without = run({});
  ASSERT_EQ(without.exit_code, 0) << without.output;
  rapidjson::Document plain = Json(without);
  ASSERT_EQ(plain["scaleUp"].Size(), 1u) << without.output;
  EXPECT_EQ(plain["scaleUp"][0]["delta"].GetInt(), 1) << without.output;

  SimulateRun bad = run({"--volumes=" + dir + "groups.json"});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("groups.json: kind: missing"), std::string::npos)
      << bad.output;

  // Templates with their live nodes' attach limits: the same plan here (no
  // CSINode in the file); a value that is not a boolean is refused.
  SimulateRun aware = run({"--volumes=" + dir + "volumes.json",
                           "--enable-csi-node-aware-scheduling"});
  ASSERT_EQ(aware.exit_code, 0) << aware.output;
  EXPECT_EQ(Json(aware)["scaleUp"].Size(), 2u) << aware.output;
  SimulateRun odd = run({"--enable-csi-node-aware-scheduling=maybe"});
  EXPECT_EQ(odd.exit_code, 2) << odd.output;
  EXPECT_NE(odd.output.find(
                "--enable-csi-node-aware-scheduling=maybe: want true or false"),
            std::string::npos)
      << odd.output;
}

// --provisioning-requests: what each request would get on the snapshot's
// room (8 one-cpu slots after the pending web-2 is placed): the first
// takes them all, so the second finds none; an atomic one for 2 pods gets
// one new node of small-a; one whose PodTemplate is not in the file would
// fail.
TEST(SimulateTest, PreviewsProvisioningRequests) {
  SimulateRun run = Simulate(
      {"--provisioning-requests=" + kData + "provisioning_requests.json",
       "--now=2026-01-01T00:05:00Z"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  rapidjson::Document doc = Json(run);
  ASSERT_TRUE(doc.IsObject() && doc.HasMember("provisioningRequests"))
      << run.output;
  std::map<std::string, std::string> results;
  for (const auto& r : doc["provisioningRequests"].GetArray()) {
    results[r["request"].GetString()] = r["result"].GetString();
  }
  EXPECT_EQ(results["default/fits"],
            "Provisioned=True (CapacityIsFound: "
            "Capacity is found in the cluster)");
  EXPECT_EQ(results["default/second"].rfind("Provisioned=False "
                                            "(CapacityIsNotFound",
                                            0),
            0u)
      << results["default/second"];
  EXPECT_EQ(results["default/atomic"],
            "Provisioned=True (CapacityIsProvisioned: Capacity is provisioned: "
            "node group small-a grows by 1) once the provider accepts");
  EXPECT_NE(results["default/missing"].find(
                "FailedToCreatePods: PodTemplate default/nope is not in the "
                "file"),
            std::string::npos)
      << results["default/missing"];
  // Without the flag the key is absent, and the table has its section.
  EXPECT_FALSE(Json(Simulate({})).HasMember("provisioningRequests"));
  SimulateRun table = Simulate(
      {"--provisioning-requests=" + kData + "provisioning_requests.json",
       "--output=table"});
  ASSERT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("PROVISIONING REQUESTS (4)"), std::string::npos)
      << table.output;
  // A file of something else is a usage error naming the item.
  SimulateRun wrong =
      Simulate({"--provisioning-requests=" + kData + "nodes.json"});
  EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("items[0].kind: \"Node\": want "
                              "ProvisioningRequest or PodTemplate"),
            std::string::npos)
      << wrong.output;
}

}  // namespace
}  // namespace propscaler::e2e
