// Connecting as a kubeconfig says: HTTPS with a CA file or CA data,
// insecure-skip-tls-verify, client certificates, bearer tokens from a file.
#include "apiserver/test_certs.h"
#include "common/files.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

std::string Base64(const std::string& text) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int value = 0, bits = -6;
  for (unsigned char c : text) {
    value = (value << 8) + c;
    bits += 8;
    while (bits >= 0) {
      out.push_back(kAlphabet[(value >> bits) & 0x3F]);
      bits -= 6;
    }
  }
  if (bits > -6) out.push_back(kAlphabet[((value << 8) >> (bits + 8)) & 0x3F]);
  while (out.size() % 4) out.push_back('=');
  return out;
}

class ConnectionTest : public ReplicaClusterTest {
 protected:
  void StartTls(bool require_client_cert) {
    Result<sim::TestCerts> certs = sim::MakeTestCerts();
    ASSERT_TRUE(certs.ok()) << certs.status().message();
    certs_ = *certs;
    sim::FakeApiServerOptions options;
    options.tls_cert_file = certs_.server.cert_file;
    options.tls_key_file = certs_.server.key_file;
    if (require_client_cert)
      options.client_ca_file = certs_.client_ca.cert_file;
    StartServerWithPerNodeParams(options);
  }

  int RunWithKubeconfig(const std::string& yaml, std::string* output) {
    kubeconfig_ = dir_.Write("kubeconfig-" + std::to_string(++configs_), yaml);
    return RunOnce({}, output);
  }

  std::string Pem(const std::string& file) {
    Result<std::string> text = ReadFile(file);
    return text.ok() ? *text : "";
  }

  sim::TestCerts certs_;
  int configs_ = 0;
};

TEST_F(ConnectionTest, HttpsWithCaFileAndCaData) {
  StartTls(false);
  ASSERT_EQ(server_.url().rfind("https://", 0), 0u);
  std::string output;
  EXPECT_EQ(RunWithKubeconfig(KubeconfigYaml(server_.url(), kToken,
                                             certs_.server_ca.cert_file),
                              &output),
            0)
      << output;
  EXPECT_EQ(Replicas(), 4);

  ASSERT_TRUE(server_.SetReplicas("deployment", kNamespace, "coredns", 1).ok());
  EXPECT_EQ(RunWithKubeconfig(
                KubeconfigYaml(server_.url(), kToken, "",
                               "certificate-authority-data: " +
                                   Base64(Pem(certs_.server_ca.cert_file))),
                &output),
            0)
      << output;
  EXPECT_EQ(Replicas(), 4);
}

TEST_F(ConnectionTest, UntrustedServerIsRefusedUnlessInsecure) {
  StartTls(false);
  std::string output;
  EXPECT_EQ(RunWithKubeconfig(KubeconfigYaml(server_.url(), kToken), &output),
            1);
  EXPECT_EQ(Replicas(), 1);
  EXPECT_NE(output.find("certificate"), std::string::npos) << output;

  // A CA that did not sign the server's certificate is refused too.
  EXPECT_EQ(RunWithKubeconfig(KubeconfigYaml(server_.url(), kToken,
                                             certs_.client_ca.cert_file),
                              &output),
            1);
  EXPECT_EQ(Replicas(), 1);
  EXPECT_NE(output.find("certificate"), std::string::npos) << output;

  EXPECT_EQ(RunWithKubeconfig(KubeconfigYaml(server_.url(), kToken, "",
                                             "insecure-skip-tls-verify: true"),
                              &output),
            0)
      << output;
  EXPECT_EQ(Replicas(), 4);
}

TEST_F(ConnectionTest, ClientCertificateAsFilesAndAsData) {
  StartTls(true);
  const std::string base =
      KubeconfigYaml(server_.url(), kToken, certs_.server_ca.cert_file);
  std::string output;
  // Without a client certificate the TLS handshake is refused.
  EXPECT_EQ(RunWithKubeconfig(base, &output), 1);

  EXPECT_EQ(RunWithKubeconfig(
                KubeconfigYaml(
                    server_.url(), kToken, certs_.server_ca.cert_file, "",
                    "    client-certificate: " + certs_.client.cert_file +
                        "\n    client-key: " + certs_.client.key_file + "\n"),
                &output),
            0)
      << output;
  EXPECT_EQ(Replicas(), 4);

  ASSERT_TRUE(server_.SetReplicas("deployment", kNamespace, "coredns", 1).ok());
  EXPECT_EQ(
      RunWithKubeconfig(
          KubeconfigYaml(server_.url(), kToken, certs_.server_ca.cert_file, "",
                         "    client-certificate-data: " +
                             Base64(Pem(certs_.client.cert_file)) +
                             "\n    client-key-data: " +
                             Base64(Pem(certs_.client.key_file)) + "\n"),
          &output),
      0)
      << output;
  EXPECT_EQ(Replicas(), 4);
}

TEST_F(ConnectionTest, TokenFromFileAndWrongTokenIsAClearError) {
  StartServerWithPerNodeParams();
  const std::string token_file =
      dir_.Write("token", std::string(kToken) + "\n");
  std::string output;
  EXPECT_EQ(
      RunWithKubeconfig(KubeconfigYaml(server_.url(), "", "", "",
                                       "    tokenFile: " + token_file + "\n"),
                        &output),
      0)
      << output;
  EXPECT_EQ(Replicas(), 4);

  EXPECT_EQ(RunWithKubeconfig(KubeconfigYaml(server_.url(), "wrong"), &output),
            1);
  EXPECT_NE(output.find("HTTP 401"), std::string::npos) << output;
}

}  // namespace
}  // namespace propscaler::e2e
