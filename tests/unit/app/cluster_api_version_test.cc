// Which group and version the Cluster API provider works in, chosen as
// Cluster Autoscaler chooses them (app/cluster_api_version.h), against the
// simulated API server's discovery.
#include "app/cluster_api_version.h"

#include <gtest/gtest.h>

#include <memory>

#include "apiserver/fake_apiserver.h"
#include "kube/wire/cluster_api_json.h"
#include "kube/wire/discovery_json.h"
#include "nodescale/provider/clusterapi.h"
#include "transport/api.h"
#include "transport/http_client.h"

namespace propscaler {
namespace {

class ClusterApiVersionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start({}).ok());
    kube::ClientConfig config;
    config.server = server_.url();
    http_ = std::make_unique<kube::HttpClient>(config, &RealClock::Instance());
    api_ = std::make_unique<kube::KubeApi>(http_.get());
  }

  int64_t Gets(const std::string& path) const {
    const auto requests = server_.Requests().by_request;
    auto found = requests.find("GET " + path);
    return found == requests.end() ? 0 : found->second;
  }

  sim::FakeApiServer server_;
  std::unique_ptr<kube::HttpClient> http_;
  std::unique_ptr<kube::KubeApi> api_;
};

TEST_F(ClusterApiVersionTest, PreferredVersionFromDiscovery) {
  Result<kube::ClusterApiVersion> chosen =
      ResolveClusterApiVersion(*api_, "", "");
  ASSERT_TRUE(chosen.ok()) << chosen.status().message();
  EXPECT_EQ(chosen->GroupVersion(), "cluster.x-k8s.io/v1beta1");
  EXPECT_EQ(Gets("/apis/cluster.x-k8s.io"), 1);
}

TEST_F(ClusterApiVersionTest, CapiVersionIsTakenWithoutAsking) {
  Result<kube::ClusterApiVersion> chosen =
      ResolveClusterApiVersion(*api_, "", "v1beta2");
  ASSERT_TRUE(chosen.ok()) << chosen.status().message();
  EXPECT_EQ(chosen->Prefix(), "/apis/cluster.x-k8s.io/v1beta2");
  EXPECT_EQ(Gets("/apis/cluster.x-k8s.io"), 0);
}

TEST_F(ClusterApiVersionTest, AGroupNotServedIsAnErrorThatSaysWhatToDo) {
  Result<kube::ClusterApiVersion> chosen =
      ResolveClusterApiVersion(*api_, "cluster.example.com", "");
  ASSERT_FALSE(chosen.ok());
  const std::string& message = chosen.status().message();
  EXPECT_NE(message.find("API group cluster.example.com"), std::string::npos)
      << message;
  EXPECT_NE(message.find("GET /apis/cluster.example.com"), std::string::npos)
      << message;
  EXPECT_NE(message.find("CAPI_VERSION"), std::string::npos) << message;
}

TEST(ClusterApiDiscoveryDecodeTest, PreferredVersionOrAnError) {
  Result<std::string> version = kube::DecodePreferredVersion(
      R"({"kind":"APIGroup","name":"cluster.x-k8s.io","versions":[)"
      R"({"groupVersion":"cluster.x-k8s.io/v1beta2","version":"v1beta2"},)"
      R"({"groupVersion":"cluster.x-k8s.io/v1beta1","version":"v1beta1"}],)"
      R"("preferredVersion":{"groupVersion":"cluster.x-k8s.io/v1beta2",)"
      R"("version":"v1beta2"}})",
      "cluster.x-k8s.io");
  ASSERT_TRUE(version.ok()) << version.status().message();
  EXPECT_EQ(*version, "v1beta2");
  for (const char* bad : {R"({"kind":"APIGroup"})", "[]", "{",
                          R"({"preferredVersion":{"version":""}})"}) {
    Result<std::string> none =
        kube::DecodePreferredVersion(bad, "cluster.x-k8s.io");
    ASSERT_FALSE(none.ok()) << bad;
    EXPECT_NE(none.status().message().find("cluster.x-k8s.io"),
              std::string::npos)
        << none.status().message();
  }
}

// CAPI_GROUP renames every key Cluster Autoscaler builds from it.
TEST(ClusterApiKeysTest, FollowTheGroup) {
  const nodescale::ClusterApiKeys keys("cluster.example.com");
  EXPECT_EQ(keys.min_size,
            "cluster.example.com/cluster-api-autoscaler-node-group-min-size");
  EXPECT_EQ(keys.max_size,
            "cluster.example.com/cluster-api-autoscaler-node-group-max-size");
  EXPECT_EQ(keys.delete_machine, "cluster.example.com/delete-machine");
  EXPECT_EQ(keys.machine, "cluster.example.com/machine");
  EXPECT_EQ(keys.cluster_namespace, "cluster.example.com/cluster-namespace");
  Result<std::optional<nodescale::ScalingBounds>> bounds =
      nodescale::ParseScalingBounds(
          {{keys.max_size, "4"},
           {"cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size",
            "9"}},
          "MachineDeployment/default/md", keys);
  ASSERT_TRUE(bounds.ok() && bounds->has_value());
  EXPECT_EQ((*bounds)->max, 4);
}

}  // namespace
}  // namespace propscaler
