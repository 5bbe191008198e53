// KubeApi::UpdateConfigMap changes only the data and the annotations it is
// given: a ConfigMap that Helm or kustomize labelled, or that carries
// binaryData or other annotations, keeps them; a stale read is a conflict.
#include <gtest/gtest.h>

#include "apiserver/fake_apiserver.h"
#include "transport/api.h"
#include "transport/http_client.h"

namespace propscaler::kube {
namespace {

constexpr char kPath[] = "/api/v1/namespaces/ns/configmaps";

class KubeApiConfigMapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start({}).ok());
    ClientConfig config;
    config.server = server_.url();
    http_ = std::make_unique<HttpClient>(config, &RealClock::Instance());
    api_ = std::make_unique<KubeApi>(http_.get());
    ASSERT_TRUE(server_
                    .CreateObject(
                        kPath,
                        R"({"metadata":{"name":"params","labels":{)"
                        R"("app.kubernetes.io/managed-by":"Helm"},)"
                        R"("annotations":{"meta.helm.sh/release-name":"dns"}},)"
                        R"("data":{"linear":"{}","old":"x"},)"
                        R"("binaryData":{"blob":"AAEC"}})")
                    .ok());
  }

  sim::FakeApiServer server_;
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<KubeApi> api_;
};

TEST_F(KubeApiConfigMapTest, UpdateKeepsWhatItDoesNotOwn) {
  Result<ConfigMap> read = api_->GetConfigMap("ns", "params");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ConfigMap desired = *read;
  desired.data = {{"ladder", "{\"nodesToReplicas\":[[1,1]]}"}};
  desired.annotations = {{"propscaler.io/default-params-hash", "abc"}};
  Result<ConfigMap> written = api_->UpdateConfigMap(desired);
  ASSERT_TRUE(written.ok()) << written.status().message();
  EXPECT_EQ(written->data, desired.data);
  const std::string stored =
      server_.GetObject(std::string(kPath) + "/params").value_or("");
  for (const char* kept : {R"("app.kubernetes.io/managed-by":"Helm")",
                           R"("meta.helm.sh/release-name":"dns")",
                           R"("binaryData":{"blob":"AAEC"})",
                           R"("propscaler.io/default-params-hash":"abc")"}) {
    EXPECT_NE(stored.find(kept), std::string::npos) << kept << "\n" << stored;
  }
  EXPECT_EQ(stored.find(R"("old")"), std::string::npos) << stored;
}

TEST_F(KubeApiConfigMapTest, UpdateOfAStaleReadIsAConflict) {
  Result<ConfigMap> read = api_->GetConfigMap("ns", "params");
  ASSERT_TRUE(read.ok());
  ConfigMap edited = *read;
  edited.data["linear"] = "{\"nodesPerReplica\":2}";
  ASSERT_TRUE(api_->UpdateConfigMap(edited).ok());  // a person's edit
  ConfigMap stale = *read;
  stale.data = {{"linear", "{\"nodesPerReplica\":9}"}};
  Result<ConfigMap> written = api_->UpdateConfigMap(stale);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.status().code(), StatusCode::kConflict);
  EXPECT_NE(server_.GetObject(std::string(kPath) + "/params")
                .value_or("")
                .find("nodesPerReplica\\\":2"),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler::kube
