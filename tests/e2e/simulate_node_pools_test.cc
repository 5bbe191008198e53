// `propscaler simulate --node-pools` end to end: the real binary plans
// node claims over Karpenter NodePools and an instance-type catalogue
// (tests/data/simulate/node-pools), checked through its JSON output and
// exit codes.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "e2e/process.h"

namespace propscaler::e2e {
namespace {

const std::string kData =
    std::string(PROPSCALER_SOURCE_DIR) + "/tests/data/simulate/node-pools/";

struct SimRun {
  int exit_code = -1;
  std::string output;
};

SimRun Simulate(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"simulate"};
  for (const std::string& a : args) all.push_back(a);
  Process process(PROPSCALER_BINARY, all);
  std::optional<int> code = process.WaitForExit(std::chrono::seconds(30));
  return {code.value_or(-1), process.Output()};
}

rapidjson::Document Json(const SimRun& run) {
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

// Karpenter's kwok catalogue (the default): the db pods each on a claim of
// their own, the web pods spread over the catalogue's four zones, every
// claim on-demand amd64 linux as the NodePool requires.
TEST(SimulateNodePoolsTest, PlansClaimsOverTheKwokCatalogue) {
  SimRun run = Simulate({"--nodes=" + kData + "nodes-none.json",
                         "--pods=" + kData + "pods.json",
                         "--node-pools=" + kData + "nodepools.yaml"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  rapidjson::Document doc = Json(run);
  const auto& claims = doc["nodeClaims"];
  ASSERT_EQ(claims.Size(), 4u) << run.output;
  std::map<std::string, int> web_per_zone;
  std::set<std::string> placed;
  for (const auto& claim : claims.GetArray()) {
    EXPECT_STREQ(claim["nodePool"].GetString(), "general");
    EXPECT_STREQ(claim["capacityType"].GetString(), "on-demand");
    const std::string type = claim["instanceType"].GetString();
    EXPECT_NE(type.find("-amd64-linux"), std::string::npos) << type;
    EXPECT_GT(claim["compatibleInstanceTypes"].GetInt(), 1);
    EXPECT_GT(claim["price"].GetDouble(), 0);
    int db = 0;
    for (const std::string& pod : Strings(claim["pods"])) {
      placed.insert(pod);
      if (pod.find("default/db-") == 0) ++db;
      if (pod.find("default/web-") == 0) {
        ++web_per_zone[claim["zone"].GetString()];
      }
    }
    EXPECT_LE(db, 1) << "two db pods share " << claim["name"].GetString();
  }
  EXPECT_EQ(placed.size(), 9u);
  ASSERT_EQ(web_per_zone.size(), 4u) << run.output;  // test-zone-a..d
  for (const auto& [zone, count] : web_per_zone) {
    EXPECT_GE(count, 1) << zone;
    EXPECT_LE(count, 2) << zone;
  }
  EXPECT_EQ(doc["placementOrder"].Size(), 9u);
  // Largest cpu first: the db pods lead.
  EXPECT_EQ(Strings(doc["placementOrder"])[0], "default/db-0");
  EXPECT_EQ(doc["unschedulable"].Size(), 0u);
  EXPECT_EQ(doc["scaleUp"].Size(), 0u);
}

// A catalogue file: the existing node takes what fits it first, the
// heavier NodePool is tried first, the cheapest type that fits launches,
// and a pod no NodePool admits says why for each.
TEST(SimulateNodePoolsTest, UsesTheCatalogueFileAndExistingNodes) {
  SimRun run = Simulate({"--nodes=" + kData + "nodes-one.json",
                         "--pods=" + kData + "pods-catalogue.json",
                         "--node-pools=" + kData + "nodepools-catalogue.yaml",
                         "--instance-types=" + kData + "instance-types.json"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  rapidjson::Document doc = Json(run);
  const auto& existing = doc["existingNodes"];
  ASSERT_EQ(existing.Size(), 1u) << run.output;
  EXPECT_STREQ(existing[0]["name"].GetString(), "existing-1");
  EXPECT_EQ(Strings(existing[0]["pods"]),
            std::vector<std::string>{"default/fits-existing"});
  std::map<std::string, std::string> type_of_pod;
  for (const auto& claim : doc["nodeClaims"].GetArray()) {
    for (const std::string& pod : Strings(claim["pods"])) {
      type_of_pod[pod] = std::string(claim["nodePool"].GetString()) + "/" +
                         claim["instanceType"].GetString();
    }
  }
  EXPECT_EQ(type_of_pod["default/needs-large"], "general/large");
  EXPECT_EQ(type_of_pod["default/small-1"], "general/large");  // joins it
  EXPECT_EQ(type_of_pod["default/arm-only"], "arm/arm");
  const auto& unschedulable = doc["unschedulable"];
  ASSERT_EQ(unschedulable.Size(), 1u) << run.output;
  EXPECT_STREQ(unschedulable[0]["pod"].GetString(), "default/nowhere");
  EXPECT_STREQ(unschedulable[0]["reasons"]["general"].GetString(),
               "node selector disk=ssd does not match");
  EXPECT_TRUE(unschedulable[0]["reasons"].HasMember("arm"));
}

// Preferences as Karpenter plans them: CoreDNS's preferred hostname
// anti-affinity is met (three claims), and a preferred affinity to pods
// that do not exist is dropped, said in "relaxed".
TEST(SimulateNodePoolsTest, PreferencesHoldWhileTheyCanAndDropsAreSaid) {
  SimRun run = Simulate({"--nodes=" + kData + "nodes-none.json",
                         "--pods=" + kData + "pods-preferences.json",
                         "--node-pools=" + kData + "nodepools.yaml"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  rapidjson::Document doc = Json(run);
  std::set<std::string> dns_claims;
  for (const auto& claim : doc["nodeClaims"].GetArray()) {
    for (const std::string& pod : Strings(claim["pods"])) {
      if (pod.find("kube-system/dns-") == 0) {
        EXPECT_TRUE(dns_claims.insert(claim["name"].GetString()).second)
            << "two dns pods share " << claim["name"].GetString();
      }
    }
  }
  EXPECT_EQ(dns_claims.size(), 3u) << run.output;
  const auto& relaxed = doc["relaxed"];
  ASSERT_EQ(relaxed.Size(), 1u) << run.output;
  EXPECT_STREQ(relaxed[0]["pod"].GetString(), "default/cache");
  EXPECT_STREQ(relaxed[0]["dropped"].GetString(),
               "preferred pod affinity term of weight 20");
  EXPECT_EQ(doc["unschedulable"].Size(), 0u);
}

TEST(SimulateNodePoolsTest, TableHasASectionForEach) {
  SimRun run = Simulate({"--nodes=" + kData + "nodes-one.json",
                         "--pods=" + kData + "pods-catalogue.json",
                         "--node-pools=" + kData + "nodepools-catalogue.yaml",
                         "--instance-types=" + kData + "instance-types.json",
                         "--output=table"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* section :
       {"NODE CLAIMS (2 new nodes", "EXISTING NODES (1 take pods)",
        "PLACEMENT ORDER (4 pods)", "UNSCHEDULABLE (1 pods)",
        "general-1  general  large  zone-a  on-demand"}) {
    EXPECT_NE(run.output.find(section), std::string::npos) << section << "\n"
                                                           << run.output;
  }
}

TEST(SimulateNodePoolsTest, BadFilesAreUsageErrorsNamingFileObjectField) {
  SimRun pools = Simulate({"--nodes=" + kData + "nodes-none.json",
                           "--pods=" + kData + "pods.json",
                           "--node-pools=" + kData + "nodepools-bad.yaml"});
  EXPECT_EQ(pools.exit_code, 2);
  EXPECT_NE(pools.output.find("nodepools-bad.yaml"), std::string::npos)
      << pools.output;
  EXPECT_NE(pools.output.find("NodePool broken.spec.template.spec."
                              "requirements[0].operator: \"Near\""),
            std::string::npos)
      << pools.output;

  SimRun types = Simulate({"--nodes=" + kData + "nodes-none.json",
                           "--pods=" + kData + "pods.json",
                           "--node-pools=" + kData + "nodepools.yaml",
                           "--instance-types=" + kData + "nodepools.yaml"});
  EXPECT_EQ(types.exit_code, 2);
  EXPECT_NE(types.output.find("want a JSON array of instance types"),
            std::string::npos)
      << types.output;

  SimRun alone = Simulate(
      {"--nodes=" + kData + "nodes-none.json", "--pods=" + kData + "pods.json",
       "--node-groups=" + kData + "../groups.json",
       "--instance-types=" + kData + "instance-types.json"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.output.find("the catalogue is for --node-pools"),
            std::string::npos)
      << alone.output;
}

}  // namespace
}  // namespace propscaler::e2e
