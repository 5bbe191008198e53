// The one discovery facility (transport/api_discovery.h) against the
// simulated API server: the paths it asks, what it reads, and errors that
// name the request.
#include "transport/api_discovery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "apiserver/fake_apiserver.h"
#include "transport/http_client.h"

namespace propscaler::kube {
namespace {

class ApiDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start({}).ok());
    ClientConfig config;
    config.server = server_.url();
    http_ = std::make_unique<HttpClient>(config, &RealClock::Instance());
    api_ = std::make_unique<KubeApi>(http_.get());
  }

  int64_t Gets(const std::string& path) const {
    const auto requests = server_.Requests().by_request;
    auto found = requests.find("GET " + path);
    return found == requests.end() ? 0 : found->second;
  }

  sim::FakeApiServer server_;
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<KubeApi> api_;
};

TEST_F(ApiDiscoveryTest, CorePathsAndGroupPaths) {
  EXPECT_EQ(ApiDiscovery::Path("v1"), "/api/v1");
  EXPECT_EQ(ApiDiscovery::Path("storage.k8s.io/v1"), "/apis/storage.k8s.io/v1");
}

TEST_F(ApiDiscoveryTest, ReadsGroupVersionsAndResources) {
  const ApiDiscovery discovery(api_.get());
  Result<std::vector<std::string>> versions =
      discovery.GroupVersions("autoscaling");
  ASSERT_TRUE(versions.ok()) << versions.status().message();
  EXPECT_NE(std::find(versions->begin(), versions->end(), "v1"),
            versions->end());
  EXPECT_EQ(Gets("/apis/autoscaling"), 1);
  Result<std::vector<std::string>> core = discovery.Resources("v1");
  ASSERT_TRUE(core.ok()) << core.status().message();
  EXPECT_NE(std::find(core->begin(), core->end(), "nodes"), core->end());
  EXPECT_EQ(Gets("/api/v1"), 1);
}

TEST_F(ApiDiscoveryTest, ServesListIsAnyAnswerBut404) {
  const ApiDiscovery discovery(api_.get());
  EXPECT_TRUE(discovery.ServesList("v1", "nodes"));
  EXPECT_FALSE(discovery.ServesList("example.com/v1", "widgets"));
}

TEST_F(ApiDiscoveryTest, AnErrorNamesTheRequest) {
  Result<std::vector<std::string>> versions =
      ApiDiscovery(api_.get()).GroupVersions("example.com");
  ASSERT_FALSE(versions.ok());
  EXPECT_EQ(versions.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(versions.status().message().rfind("GET /apis/example.com: ", 0), 0u)
      << versions.status().message();
}

}  // namespace
}  // namespace propscaler::kube
