// Pools, prices and capacity types of Cluster API node groups from their
// propscaler.io/ annotations.
#include "nodescale/provider/clusterapi_pools.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

NodeGroup Named(const std::string& name) {
  NodeGroup group;
  group.name = name;
  return group;
}

TEST(ClusterApiPoolsTest, GroupsDeclareTheirPoolPriceAndCapacity) {
  ClusterApiPools pools;
  NodeGroup spot = Named("MachineDeployment/default/spot");
  ASSERT_TRUE(
      pools
          .Add({{"propscaler.io/pool", "batch"},
                {"propscaler.io/price", "0.128"},
                {"propscaler.io/capacity-type", "spot"},
                {"propscaler.io/pool-settings",
                 R"({"disruption":{"consolidateAfter":"5m",)"
                 R"("budgets":[{"nodes":"2"}]},"expireAfter":"Never"})"}},
               &spot)
          .ok());
  EXPECT_EQ(spot.pool, "batch");
  EXPECT_EQ(spot.price, 0.128);
  EXPECT_EQ(spot.capacity_type, "spot");
  NodeGroup other = Named("MachineSet/default/other");
  ASSERT_TRUE(pools.Add({{"propscaler.io/pool", "batch"}}, &other).ok());
  NodeGroup plain = Named("MachineDeployment/default/plain");
  ASSERT_TRUE(pools.Add({}, &plain).ok());
  EXPECT_EQ(plain.pool, "");
  EXPECT_FALSE(plain.price.has_value());
  EXPECT_EQ(plain.capacity_type, "on-demand");

  Result<std::vector<NodePool>> declared = pools.Pools();
  ASSERT_TRUE(declared.ok()) << declared.status().message();
  ASSERT_EQ(declared->size(), 1u);
  const NodePool& batch = declared->front();
  EXPECT_EQ(batch.name, "batch");
  EXPECT_EQ(batch.consolidate_after, std::chrono::minutes(5));
  EXPECT_FALSE(batch.expire_after.has_value());
  ASSERT_EQ(batch.budgets.size(), 1u);
  EXPECT_EQ(batch.budgets[0].nodes, "2");
}

TEST(ClusterApiPoolsTest, ErrorsNameTheGroupAnnotationAndValue) {
  auto error = [](const Labels& annotations) {
    ClusterApiPools pools;
    NodeGroup group = Named("MachineDeployment/ns/web");
    return pools.Add(annotations, &group).message();
  };
  EXPECT_EQ(
      error({{"propscaler.io/price", "cheap"}}),
      "MachineDeployment/ns/web: annotation propscaler.io/price=\"cheap\": "
      "want a non-negative number");
  EXPECT_EQ(error({{"propscaler.io/capacity-type", "reserved"}}),
            "MachineDeployment/ns/web: annotation "
            "propscaler.io/capacity-type=\"reserved\": want on-demand or spot");
  EXPECT_EQ(error({{"propscaler.io/pool-settings", "{}"}}),
            "MachineDeployment/ns/web: annotation propscaler.io/pool-settings "
            "without propscaler.io/pool");
  const std::string bad_policy =
      error({{"propscaler.io/pool", "p"},
             {"propscaler.io/pool-settings",
              R"({"disruption":{"consolidationPolicy":"Always"}})"}});
  EXPECT_NE(bad_policy.find("MachineDeployment/ns/web: annotation "
                            "propscaler.io/pool-settings"),
            std::string::npos)
      << bad_policy;
  EXPECT_NE(bad_policy.find("disruption.consolidationPolicy: \"Always\" is not "
                            "WhenEmpty or WhenEmptyOrUnderutilized"),
            std::string::npos)
      << bad_policy;

  ClusterApiPools pools;
  NodeGroup a = Named("MachineDeployment/ns/a");
  NodeGroup b = Named("MachineDeployment/ns/b");
  ASSERT_TRUE(
      pools
          .Add({{"propscaler.io/pool", "p"},
                {"propscaler.io/pool-settings", R"({"expireAfter":"1h"})"}},
               &a)
          .ok());
  EXPECT_EQ(
      pools
          .Add({{"propscaler.io/pool", "p"},
                {"propscaler.io/pool-settings", R"({"expireAfter":"2h"})"}},
               &b)
          .message(),
      "pool p: MachineDeployment/ns/a and MachineDeployment/ns/b "
      "annotate different propscaler.io/pool-settings");
}

}  // namespace
}  // namespace propscaler::nodescale
