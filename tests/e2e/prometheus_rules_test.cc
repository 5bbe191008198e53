// The PrometheusRules deploy/monitoring/rules/ ships for the Prometheus
// Operator hold exactly the rule groups of deploy/prometheus/alerts.yaml
// (which promtool tests in CI): each mode's object the group for every mode
// and its own, rule for rule, and promtool accepts each object's spec.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "e2e/process.h"

namespace propscaler::e2e {
namespace {

std::string Source(const std::string& path) {
  return std::string(PROPSCALER_SOURCE_DIR) + "/" + path;
}

// Each rule group of a rule file's `groups`, by name, as YAML text.
std::map<std::string, std::string> GroupsOf(const YAML::Node& groups) {
  std::map<std::string, std::string> out;
  for (const YAML::Node& group : groups) {
    out[group["name"].as<std::string>()] = YAML::Dump(group);
  }
  return out;
}

// promtool's verdict on a rule file: its exit status and output.
std::pair<int, std::string> PromtoolCheckRules(const std::string& path) {
  const std::string command =
      std::string(PROMTOOL_BINARY) + " check rules " + path + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) {
    output.append(buffer, n);
  }
  return {pclose(pipe), output};
}

TEST(ShippedPrometheusRulesTest, ShippedPrometheusRulesHoldTheseRules) {
  const std::map<std::string, std::string> tested = GroupsOf(
      YAML::LoadFile(Source("deploy/prometheus/alerts.yaml"))["groups"]);
  ASSERT_TRUE(tested.contains("propscaler"));
  std::set<std::string> shipped;
  TempDir dir;
  for (const std::string mode : {"replicas", "vertical", "node-scale"}) {
    SCOPED_TRACE(mode);
    const YAML::Node object = YAML::LoadFile(
        Source("deploy/monitoring/rules/propscaler-" + mode + ".yaml"));
    EXPECT_EQ(object["apiVersion"].as<std::string>(),
              "monitoring.coreos.com/v1");
    EXPECT_EQ(object["kind"].as<std::string>(), "PrometheusRule");
    EXPECT_EQ(object["metadata"]["name"].as<std::string>(),
              "propscaler-" + mode);
    const std::map<std::string, std::string> groups =
        GroupsOf(object["spec"]["groups"]);
    ASSERT_EQ(groups.size(), 2u);
    for (const std::string& name :
         {std::string("propscaler"), "propscaler-" + mode}) {
      ASSERT_TRUE(groups.contains(name)) << name;
      ASSERT_TRUE(tested.contains(name)) << name;
      EXPECT_EQ(groups.at(name), tested.at(name)) << name;
      shipped.insert(name);
    }
    const std::string spec =
        dir.Write(mode + ".rules.yaml", YAML::Dump(object["spec"]));
    const auto [status, output] = PromtoolCheckRules(spec);
    EXPECT_EQ(status, 0) << output;
  }
  for (const auto& [name, group] : tested) {
    EXPECT_TRUE(shipped.contains(name))
        << "group " << name << " is in no PrometheusRule";
  }
}

}  // namespace
}  // namespace propscaler::e2e
