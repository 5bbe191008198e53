#include "replicas/hpa_floors.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

using kube::HpaRef;
using kube::ScaleTarget;

HpaRef Hpa(const std::string& name, const std::string& kind,
           const std::string& target) {
  return HpaRef{.name = name, .target_kind = kind, .target_name = target};
}

TEST(HpaFloorsTest, AutoGivesEachTargetItsOneHpa) {
  const std::vector<HpaRef> hpas = {
      Hpa("a", "Deployment", "coredns"), Hpa("b", "Deployment", "web"),
      Hpa("c", "Deployment", "web"), Hpa("d", "StatefulSet", "coredns"),
      Hpa("e", "Deployment", "elsewhere")};
  const std::vector<ScaleTarget> targets = {
      {ScaleTarget::Kind::kDeployment, "coredns"},
      {ScaleTarget::Kind::kDeployment, "web"},
      {ScaleTarget::Kind::kDeployment, "api"},
      {ScaleTarget::Kind::kStatefulSet, "coredns"}};
  const FloorPlan plan = PlanAutoFloors(hpas, targets);
  ASSERT_EQ(plan.floors.size(), 2u);
  EXPECT_EQ(plan.floors.at("deployment/coredns").name, "a");
  EXPECT_EQ(plan.floors.at("statefulset/coredns").name, "d");
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_NE(plan.refused.at("deployment/web")
                .find("scaled by 2 HorizontalPodAutoscalers (b, c)"),
            std::string::npos)
      << plan.refused.at("deployment/web");
  EXPECT_EQ(plan.floors.count("deployment/api"), 0u);
  EXPECT_EQ(plan.refused.count("deployment/api"), 0u);
}

TEST(HpaFloorsTest, NamedFloorsItsTargetOrSaysWhatItScales) {
  const std::vector<ScaleTarget> targets = {
      {ScaleTarget::Kind::kDeployment, "coredns"},
      {ScaleTarget::Kind::kDeployment, "api"}};
  Result<FloorPlan> plan =
      PlanNamedFloor(Hpa("dns", "Deployment", "api"), targets, "the HPA");
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->floors.size(), 1u);
  EXPECT_EQ(plan->floors.at("deployment/api").name, "dns");

  Result<FloorPlan> elsewhere =
      PlanNamedFloor(Hpa("dns", "StatefulSet", "api"), targets, "the HPA");
  ASSERT_FALSE(elsewhere.ok());
  EXPECT_EQ(elsewhere.status().message(),
            "the HPA scales StatefulSet api, which is not a target "
            "(deployment/coredns, deployment/api); the replicas are left as "
            "they are");
  EXPECT_NE(PlanNamedFloor(Hpa("dns", "Deployment", "x"), {}, "the HPA")
                .status()
                .message()
                .find("(none now)"),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler
