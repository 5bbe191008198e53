#include "transport/client_config.h"

#include <gtest/gtest.h>

namespace propscaler::kube {
namespace {

constexpr char kKubeconfig[] = R"(
apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: prod
  cluster:
    server: https://prod.example:6443
- name: local
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: certs/ca.crt
    insecure-skip-tls-verify: true
contexts:
- name: dev
  context:
    cluster: local
    user: alice
    namespace: kube-system
users:
- name: alice
  user:
    token: s3cret
    tokenFile: /var/run/token
    client-certificate-data: Y2VydA==
    client-key: /abs/key.pem
)";

TEST(ClientConfigTest, ResolvesCurrentContext) {
  Result<ClientConfig> config = ParseKubeconfig(kKubeconfig, "/home/me/.kube");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->server, "https://127.0.0.1:6443");
  EXPECT_EQ(config->ca_file, "/home/me/.kube/certs/ca.crt");
  EXPECT_TRUE(config->insecure_skip_tls_verify);
  EXPECT_EQ(config->token, "s3cret");
  EXPECT_EQ(config->token_file, "/var/run/token");
  EXPECT_EQ(config->client_cert_pem, "cert");
  EXPECT_EQ(config->client_key_file, "/abs/key.pem");
  EXPECT_EQ(config->namespace_, "kube-system");
}

TEST(ClientConfigTest, CaDataIsDecoded) {
  Result<ClientConfig> config = ParseKubeconfig(R"(
current-context: c
clusters: [{name: k, cluster: {server: "http://localhost:8001", certificate-authority-data: "LS0tLS1CRUdJTg=="}}]
contexts: [{name: c, context: {cluster: k}}]
)",
                                                "");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->server, "http://localhost:8001");
  EXPECT_EQ(config->ca_pem, "-----BEGIN");
  EXPECT_FALSE(config->insecure_skip_tls_verify);
  EXPECT_TRUE(config->token.empty());
}

TEST(ClientConfigTest, ErrorsNameWhatIsMissing) {
  Result<ClientConfig> no_context = ParseKubeconfig("clusters: []", "");
  ASSERT_FALSE(no_context.ok());
  EXPECT_NE(no_context.status().message().find("current-context"),
            std::string::npos);

  Result<ClientConfig> unknown = ParseKubeconfig(
      "current-context: x\ncontexts: [{name: y, context: {cluster: k}}]", "");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("\"x\""), std::string::npos);

  Result<ClientConfig> bad_yaml = ParseKubeconfig("a: [", "");
  ASSERT_FALSE(bad_yaml.ok());
  EXPECT_NE(bad_yaml.status().message().find("YAML"), std::string::npos);

  Result<ClientConfig> missing_file = LoadKubeconfig("/nonexistent/kubeconfig");
  ASSERT_FALSE(missing_file.ok());
  EXPECT_NE(missing_file.status().message().find("/nonexistent/kubeconfig"),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler::kube
