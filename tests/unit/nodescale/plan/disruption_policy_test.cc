#include "nodescale/plan/disruption_policy.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

TEST(DisruptionPolicyTest, ParsesTheThreeValues) {
  EXPECT_EQ(*ParseDisruptionPolicy("auto"), DisruptionPolicy::kAuto);
  EXPECT_EQ(*ParseDisruptionPolicy("karpenter"), DisruptionPolicy::kKarpenter);
  EXPECT_EQ(*ParseDisruptionPolicy("scale-down"), DisruptionPolicy::kScaleDown);
}

TEST(DisruptionPolicyTest, RefusesAnythingElseNamingIt) {
  Result<DisruptionPolicy> policy = ParseDisruptionPolicy("Karpenter");
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().message(),
            "--disruption=Karpenter: want auto, karpenter or scale-down");
  EXPECT_FALSE(ParseDisruptionPolicy("").ok());
}

TEST(DisruptionPolicyTest, AutoIsKarpentersWhenPoolsAreDeclared) {
  EXPECT_TRUE(UsesKarpenterDisruption(DisruptionPolicy::kAuto, true));
  EXPECT_FALSE(UsesKarpenterDisruption(DisruptionPolicy::kAuto, false));
  EXPECT_TRUE(UsesKarpenterDisruption(DisruptionPolicy::kKarpenter, false));
  EXPECT_FALSE(UsesKarpenterDisruption(DisruptionPolicy::kScaleDown, true));
}

TEST(DisruptionPolicyTest, EachIterationHasOneRemovalPath) {
  EXPECT_EQ(RemovalPathOf(false, DisruptionPolicy::kKarpenter, true),
            RemovalPath::kNone);
  EXPECT_EQ(RemovalPathOf(true, DisruptionPolicy::kAuto, true),
            RemovalPath::kDisruption);
  EXPECT_EQ(RemovalPathOf(true, DisruptionPolicy::kAuto, false),
            RemovalPath::kScaleDown);
  EXPECT_EQ(RemovalPathOf(true, DisruptionPolicy::kScaleDown, true),
            RemovalPath::kScaleDown);
}

}  // namespace
}  // namespace propscaler::nodescale
