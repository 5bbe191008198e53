#include "replicas/hpa_conflicts.h"

#include <gtest/gtest.h>

#include "kube/wire/decode.h"

namespace propscaler {
namespace {

TEST(HpaConflictsTest, MatchesKindAndName) {
  Result<std::vector<kube::ScaleTarget>> targets =
      kube::ParseScaleTargets("deployment/coredns,statefulset/cache");
  ASSERT_TRUE(targets.ok());
  const std::vector<kube::HpaRef> hpas = {
      {"dns", "Deployment", "coredns"},
      {"other-name", "Deployment", "web"},
      {"other-kind", "ReplicaSet", "coredns"},
      {"cache", "StatefulSet", "cache"},
  };
  std::vector<HpaConflict> conflicts = FindHpaConflicts(hpas, *targets);
  ASSERT_EQ(conflicts.size(), 2u);
  EXPECT_EQ(conflicts[0].hpa, "dns");
  EXPECT_EQ(conflicts[0].target.ToString(), "deployment/coredns");
  EXPECT_EQ(conflicts[1].hpa, "cache");
  EXPECT_EQ(conflicts[1].target.ToString(), "statefulset/cache");
  EXPECT_TRUE(FindHpaConflicts({}, *targets).empty());
}

TEST(HpaConflictsTest, DecodesTheListAndSkipsItemsWithoutATarget) {
  Result<kube::ListPage<kube::HpaRef>> page = kube::DecodeHpaPage(R"({
    "kind":"HorizontalPodAutoscalerList","items":[
      {"metadata":{"name":"dns"},"spec":{"scaleTargetRef":
        {"apiVersion":"apps/v1","kind":"Deployment","name":"coredns"},
        "maxReplicas":5}},
      {"metadata":{"name":"broken"},"spec":{}}]})");
  ASSERT_TRUE(page.ok()) << page.status().message();
  const std::vector<kube::HpaRef>& hpas = page->items;
  ASSERT_EQ(hpas.size(), 1u);
  EXPECT_EQ(hpas[0].name, "dns");
  EXPECT_EQ(hpas[0].target_kind, "Deployment");
  EXPECT_EQ(hpas[0].target_name, "coredns");

  Result<kube::ListPage<kube::HpaRef>> bad = kube::DecodeHpaPage("{not json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("horizontalpodautoscaler"),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler
