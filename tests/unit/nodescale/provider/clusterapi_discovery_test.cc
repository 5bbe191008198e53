// --node-group-auto-discovery for the clusterapi provider, with Cluster
// Autoscaler's own cases (clusterapi_autodiscovery_test.go: its specs and
// whether each parses and what it admits).
#include "nodescale/provider/clusterapi_discovery.h"

#include <gtest/gtest.h>

#include "app/flag_spelling.h"

namespace propscaler::nodescale {
namespace {

ClusterApiDiscoverySpec Spec(
    std::string ns, std::string cluster,
    std::vector<std::pair<std::string, std::string>> labels = {}) {
  std::vector<LabelRequirement> requirements;
  for (const auto& [key, value] : labels) {
    requirements.push_back({key, LabelRequirement::Op::kEquals, {value}});
  }
  return {std::move(ns), std::move(cluster),
          LabelSelector(std::move(requirements))};
}

TEST(ClusterApiDiscoveryTest, SpecsParseAsClusterAutoscalerParsesThem) {
  struct Case {
    std::string spec;
    std::optional<ClusterApiDiscoverySpec> want;  // nullopt: an error
  };
  const std::vector<Case> cases = {
      {"foo", std::nullopt},
      {"asg:tag=k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/"
       "clustername",
       std::nullopt},
      {"clusterapi:invalid", std::nullopt},
      {"clusterapi:", Spec("", "")},
      {"clusterapi:clusterName=foo", Spec("", "foo")},
      {"clusterapi:namespace=default", Spec("default", "")},
      {"clusterapi:mylabel=", Spec("", "", {{"mylabel", ""}})},
      {"clusterapi:mylabel=myval", Spec("", "", {{"mylabel", "myval"}})},
      {"clusterapi:color=blue,shape=square",
       Spec("", "", {{"color", "blue"}, {"shape", "square"}})},
      {"clusterapi:namespace=test,color=blue,shape=square",
       Spec("test", "", {{"color", "blue"}, {"shape", "square"}})},
      {"clusterapi:namespace=test,color=blue",
       Spec("test", "", {{"color", "blue"}})},
      {"clusterapi:clusterName=foo,color=blue,shape=square",
       Spec("", "foo", {{"color", "blue"}, {"shape", "square"}})},
      {"clusterapi:clusterName=foo,shape=square",
       Spec("", "foo", {{"shape", "square"}})},
      {"clusterapi:namespace=test,color=blue,shape=square,clusterName=foo",
       Spec("test", "foo", {{"color", "blue"}, {"shape", "square"}})},
      {"clusterapi:namespace=test,color=blue,clusterName=foo",
       Spec("test", "foo", {{"color", "blue"}})},
      // Beyond CA's table: a label key Kubernetes would refuse.
      {"clusterapi:bad key=x", std::nullopt},
  };
  for (const Case& c : cases) {
    Result<ClusterApiDiscoverySpec> parsed =
        ParseClusterApiDiscoverySpec(c.spec);
    if (!c.want) {
      ASSERT_FALSE(parsed.ok()) << c.spec;
      EXPECT_NE(parsed.status().message().find(c.spec), std::string::npos)
          << parsed.status().message();
      continue;
    }
    ASSERT_TRUE(parsed.ok()) << c.spec << ": " << parsed.status().message();
    EXPECT_EQ(*parsed, *c.want) << c.spec;
  }
  // Several specs: one bad spec fails them all.
  EXPECT_FALSE(
      ParseClusterApiDiscovery({"foo", "clusterapi:color=green"}).ok());
  Result<std::vector<ClusterApiDiscoverySpec>> two = ParseClusterApiDiscovery(
      {"clusterapi:namespace=test,color=blue,clusterName=foo",
       "clusterapi:namespace=default,color=green,clusterName=bar"});
  ASSERT_TRUE(two.ok()) << two.status().message();
  EXPECT_EQ(*two, (std::vector<ClusterApiDiscoverySpec>{
                      Spec("test", "foo", {{"color", "blue"}}),
                      Spec("default", "bar", {{"color", "green"}})}));
}

kube::ClusterApiObject Group(std::string ns, std::string cluster,
                             Labels labels = {}) {
  kube::ClusterApiObject object;
  object.namespace_ = std::move(ns);
  object.name = "md-0";
  object.cluster_name = std::move(cluster);
  object.labels = std::move(labels);
  return object;
}

constexpr char kClusterNameLabel[] = "cluster.x-k8s.io/cluster-name";

// CA's Test_allowedByAutoDiscoverySpec cases (MachineSet and
// MachineDeployment alike).
TEST(ClusterApiDiscoveryTest, AdmitsAsClusterAutoscalerDoes) {
  struct Case {
    ClusterApiDiscoverySpec spec;
    kube::ClusterApiObject object;
    bool admitted;
  };
  const std::vector<Case> cases = {
      {Spec("", ""), Group("ns-x", "c-y"), true},
      {Spec("default", "foo"), Group("default", "other"), false},
      {Spec("default", "foo"), Group("other", "foo"), false},
      {Spec("default", "foo"), Group("default", "foo"), true},
      {Spec("default", "foo", {{"color", "green"}}), Group("default", "foo"),
       false},
      {Spec("default", "foo", {{"color", "green"}}),
       Group("default", "foo", {{"color", "green"}}), true},
      // The cluster name from the label when spec.clusterName is empty.
      {Spec("", "foo"), Group("default", "", {{kClusterNameLabel, "foo"}}),
       true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(AllowedByDiscovery({c.spec}, c.object, kClusterNameLabel),
              c.admitted)
        << c.object.namespace_ << "/" << c.object.cluster_name;
  }
  // No spec admits everything; several are ORed.
  EXPECT_TRUE(AllowedByDiscovery({}, Group("a", "b"), kClusterNameLabel));
  EXPECT_TRUE(AllowedByDiscovery({Spec("x", ""), Spec("a", "")},
                                 Group("a", "b"), kClusterNameLabel));
}

// The flag may be repeated, as Cluster Autoscaler's: every value is kept.
TEST(JoinRepeatedFlagTest, JoinsEveryValueWhereTheFirstStood) {
  EXPECT_EQ(JoinRepeatedFlag({"propscaler", "--a=1", "--x=clusterapi:a=b", "-x",
                              "clusterapi:namespace=n", "--b"},
                             "x", ';'),
            (std::vector<std::string>{
                "propscaler", "--a=1",
                "--x=clusterapi:a=b;clusterapi:namespace=n", "--b"}));
  EXPECT_EQ(JoinRepeatedFlag({"propscaler", "--xy=1", "--", "--x=2"}, "x", ';'),
            (std::vector<std::string>{"propscaler", "--xy=1", "--", "--x=2"}));
}

}  // namespace
}  // namespace propscaler::nodescale
