// CheckClientConfig and LoadKubeconfig: a configuration that cannot work is
// refused at start, naming the field and the bad value.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "transport/client_config.h"

namespace propscaler::kube {
namespace {

namespace fs = std::filesystem;

class ClientConfigCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("propscaler-config-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    Write("ca.crt",
          "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    Write("token", "abc");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  ClientConfig Good() const {
    ClientConfig config;
    config.server = "https://10.0.0.1:6443";
    config.ca_file = (dir_ / "ca.crt").string();
    config.token_file = (dir_ / "token").string();
    return config;
  }
  // The error for `config`, or "" when it passes.
  static std::string ErrorOf(const ClientConfig& config) {
    return CheckClientConfig(config).message();
  }

  fs::path dir_;
};

TEST_F(ClientConfigCheckTest, AcceptsAWorkingConfiguration) {
  EXPECT_TRUE(CheckClientConfig(Good()).ok()) << ErrorOf(Good());
  ClientConfig v6 = Good();
  v6.server = "https://[fd00::1]:443/prefix";
  EXPECT_TRUE(CheckClientConfig(v6).ok()) << ErrorOf(v6);
  ClientConfig no_port = Good();
  no_port.server = "http://localhost";
  EXPECT_TRUE(CheckClientConfig(no_port).ok()) << ErrorOf(no_port);
}

TEST_F(ClientConfigCheckTest, RefusesServersThatAreNoUrl) {
  for (const char* server :
       {"10.0.0.1:6443", "ftp://x", "https://", "https://:443", "https://h:0",
        "https://h:99999", "https://h:x", "https://h :1", "https://h:"}) {
    ClientConfig config = Good();
    config.server = server;
    EXPECT_NE(ErrorOf(config).find("server \"" + std::string(server) + "\""),
              std::string::npos)
        << server << ": " << ErrorOf(config);
  }
}

TEST_F(ClientConfigCheckTest, RefusesFilesThatCannotBeUsed) {
  ClientConfig missing_ca = Good();
  missing_ca.ca_file = (dir_ / "nope.crt").string();
  EXPECT_NE(ErrorOf(missing_ca).find("certificate-authority"),
            std::string::npos);
  EXPECT_NE(ErrorOf(missing_ca).find("nope.crt"), std::string::npos);

  ClientConfig not_pem = Good();
  not_pem.ca_file = Write("garbage.crt", "hello");
  EXPECT_NE(ErrorOf(not_pem).find("holds no PEM block"), std::string::npos);

  ClientConfig missing_token = Good();
  missing_token.token_file = (dir_ / "gone").string();
  EXPECT_NE(ErrorOf(missing_token).find("tokenFile"), std::string::npos);

  ClientConfig empty_token = Good();
  empty_token.token_file = Write("empty", "\n");
  EXPECT_NE(ErrorOf(empty_token).find("is empty"), std::string::npos);

  ClientConfig cert_only = Good();
  cert_only.client_cert_file = (dir_ / "ca.crt").string();
  EXPECT_NE(ErrorOf(cert_only).find("without its client-key"),
            std::string::npos);

  ClientConfig bad_data = Good();
  bad_data.ca_pem = "not a certificate";
  EXPECT_NE(ErrorOf(bad_data).find("certificate-authority-data"),
            std::string::npos);
}

TEST_F(ClientConfigCheckTest, LoadKubeconfigNamesTheFileAndTheField) {
  const std::string path =
      Write("kubeconfig",
            "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
            "clusters:\n- name: k\n  cluster:\n    server: https://10.0.0.1\n"
            "    certificate-authority: missing-ca.crt\n"
            "contexts:\n- name: c\n  context:\n    cluster: k\n    user: u\n"
            "users:\n- name: u\n  user:\n    token: t\n");
  Result<ClientConfig> loaded = LoadKubeconfig(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(loaded.status().message().find(path), std::string::npos);
  EXPECT_NE(loaded.status().message().find("certificate-authority"),
            std::string::npos);
  EXPECT_NE(loaded.status().message().find("missing-ca.crt"),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler::kube
