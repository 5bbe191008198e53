// Credentials under faults: a 401 makes propscaler re-read its token file at
// once (not at the next periodic re-read, a minute later), and no token,
// certificate or key ever reaches the log, even at --v=10 and on errors.
#include <sstream>

#include "apiserver/test_certs.h"
#include "common/files.h"
#include "e2e/fault_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

class CredentialsTest : public FaultTest {
 protected:
  void UseTokenFile(const std::string& token) {
    token_file_ = dir_.Write("token", token + "\n");
    kubeconfig_ =
        dir_.Write("kubeconfig-token-file",
                   KubeconfigYaml(server_.url(), "", "", "",
                                  "    tokenFile: " + token_file_ + "\n"));
  }

  std::string token_file_;
};

TEST_F(CredentialsTest, UnauthorizedRereadsTheTokenFileAtOnce) {
  UseTokenFile("stale-token");
  auto propscaler = Start({"--healthz-port=" + std::to_string(health_port_),
                           "--poll-period-seconds=1"});
  EXPECT_TRUE(WaitForLastPoll(500, "401", seconds(4))) << LastPollBody();
  const auto rotated = Clock::now();
  dir_.Write("token", std::string(kToken) + "\n");  // the kubelet rotates it
  ASSERT_TRUE(WaitForReplicas(4, seconds(5))) << propscaler->Report();
  // The periodic re-read is a minute away: only the 401 explains this.
  EXPECT_LT(Clock::now() - rotated, seconds(5));
}

// Lines of a PEM file that carry key material (not the BEGIN/END lines).
std::vector<std::string> PemBodyLines(const std::string& file) {
  Result<std::string> text = ReadFile(file);
  std::vector<std::string> lines;
  if (!text.ok()) return lines;
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.find("-----") == std::string::npos) {
      lines.push_back(line);
    }
  }
  return lines;
}

void ExpectNoSecrets(const std::string& output,
                     const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets) {
    EXPECT_EQ(output.find(secret), std::string::npos)
        << "secret \"" << secret << "\" in the log:\n"
        << output;
  }
  EXPECT_EQ(output.find("PRIVATE KEY"), std::string::npos) << output;
}

TEST_F(CredentialsTest, NoSecretInTheLogAtVerbosityTen) {
  Result<sim::TestCerts> certs = sim::MakeTestCerts();
  ASSERT_TRUE(certs.ok()) << certs.status().message();
  sim::FakeApiServer tls_server;
  sim::FakeApiServerOptions options;
  options.tls_cert_file = certs->server.cert_file;
  options.tls_key_file = certs->server.key_file;
  options.client_ca_file = certs->client_ca.cert_file;
  options.bearer_token = kToken;
  ASSERT_TRUE(tls_server.Start(options).ok());
  ASSERT_TRUE(
      tls_server.CreateWorkload("deployment", kNamespace, "coredns", 1).ok());
  ASSERT_TRUE(tls_server.CreateNode(NodeJson("node-0", "4")).ok());

  std::vector<std::string> secrets = PemBodyLines(certs->client.key_file);
  ASSERT_FALSE(secrets.empty());
  secrets.push_back(kToken);
  const std::string user =
      "    client-certificate: " + certs->client.cert_file +
      "\n    client-key: " + certs->client.key_file + "\n";
  // A good run, which creates the ConfigMap and scales.
  kubeconfig_ = dir_.Write(
      "kubeconfig-tls", KubeconfigYaml(tls_server.url(), kToken,
                                       certs->server_ca.cert_file, "", user));
  std::string output;
  EXPECT_EQ(RunOnce({"--v=10", std::string("--default-params=") +
                                   R"({"linear":{"nodesPerReplica":1}})"},
                    &output),
            0)
      << output;
  ExpectNoSecrets(output, secrets);

  // A refused token, which puts errors in the log.
  const std::string wrong_token = "wrong-secret-token-0123456789";
  kubeconfig_ = dir_.Write(
      "kubeconfig-wrong", KubeconfigYaml(tls_server.url(), wrong_token,
                                         certs->server_ca.cert_file, "", user));
  EXPECT_EQ(RunOnce({"--v=10"}, &output), 1);
  EXPECT_NE(output.find("HTTP 401"), std::string::npos) << output;
  secrets.push_back(wrong_token);
  ExpectNoSecrets(output, secrets);
}

}  // namespace
}  // namespace propscaler::e2e
