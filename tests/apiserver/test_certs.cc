#include "apiserver/test_certs.h"

#include <cstdlib>
#include <filesystem>

namespace propscaler::sim {
namespace {

Status Run(const std::string& command) {
  std::string quiet = command + " >/dev/null 2>&1";
  if (std::system(quiet.c_str()) != 0) {
    return Status::Internal("command failed: " + command);
  }
  return Status::Ok();
}

Result<std::string> MakeTempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "propscaler-certs-XXXXXX")
          .string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return Status::Internal("cannot create a temporary directory");
  }
  return pattern;
}

Status MakeSelfSigned(const CertFiles& files, const std::string& subject,
                      const std::string& extension) {
  return Run("openssl req -x509 -newkey rsa:2048 -nodes -subj " + subject +
             (extension.empty() ? "" : " -addext " + extension) +
             " -days 1 -keyout " + files.key_file + " -out " + files.cert_file);
}

Status MakeSigned(const CertFiles& files, const CertFiles& ca,
                  const std::string& subject, const std::string& dir) {
  std::string csr = dir + "/client.csr";
  Status s = Run("openssl req -new -newkey rsa:2048 -nodes -subj " + subject +
                 " -keyout " + files.key_file + " -out " + csr);
  if (!s.ok()) return s;
  return Run("openssl x509 -req -in " + csr + " -CA " + ca.cert_file +
             " -CAkey " + ca.key_file + " -CAcreateserial -days 1 -out " +
             files.cert_file);
}

}  // namespace

Result<TestCerts> MakeTestCerts() {
  Result<std::string> dir = MakeTempDir();
  if (!dir.ok()) return dir.status();
  TestCerts certs;
  certs.dir = *dir;
  certs.dir_owner = std::shared_ptr<void>(
      nullptr, [dir = *dir](void*) { std::filesystem::remove_all(dir); });
  certs.server = {certs.dir + "/server.crt", certs.dir + "/server.key"};
  certs.client_ca = {certs.dir + "/client-ca.crt",
                     certs.dir + "/client-ca.key"};
  certs.client = {certs.dir + "/client.crt", certs.dir + "/client.key"};
  Status s = MakeSelfSigned(certs.server, "/CN=127.0.0.1",
                            "subjectAltName=IP:127.0.0.1");
  if (s.ok()) s = MakeSelfSigned(certs.client_ca, "/CN=propscaler-test-ca", "");
  if (s.ok()) {
    s = MakeSigned(certs.client, certs.client_ca, "/CN=propscaler-test",
                   certs.dir);
  }
  if (!s.ok()) return s;
  return certs;
}

}  // namespace propscaler::sim
