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

// A key and certificate signed by `ca`; `extension` (e.g. a
// subjectAltName) is carried from the request into the certificate.
Status MakeSigned(const CertFiles& files, const CertFiles& ca,
                  const std::string& subject, const std::string& extension) {
  const std::string csr = files.cert_file + ".csr";
  Status s = Run("openssl req -new -newkey rsa:2048 -nodes -subj " + subject +
                 (extension.empty() ? "" : " -addext " + extension) +
                 " -keyout " + files.key_file + " -out " + csr);
  if (!s.ok()) return s;
  return Run("openssl x509 -req -in " + csr + " -CA " + ca.cert_file +
             " -CAkey " + ca.key_file +
             " -CAcreateserial -copy_extensions copyall -days 1 -out " +
             files.cert_file);
}

constexpr char kServerSubject[] = "/CN=127.0.0.1";
constexpr char kServerSan[] = "subjectAltName=IP:127.0.0.1";

}  // namespace

Result<TestCerts> MakeTestCerts() {
  Result<std::string> dir = MakeTempDir();
  if (!dir.ok()) return dir.status();
  TestCerts certs;
  certs.dir = *dir;
  certs.dir_owner = std::shared_ptr<void>(
      nullptr, [dir = *dir](void*) { std::filesystem::remove_all(dir); });
  certs.server_ca = {certs.dir + "/server-ca.crt",
                     certs.dir + "/server-ca.key"};
  certs.server = {certs.dir + "/server.crt", certs.dir + "/server.key"};
  certs.client_ca = {certs.dir + "/client-ca.crt",
                     certs.dir + "/client-ca.key"};
  certs.client = {certs.dir + "/client.crt", certs.dir + "/client.key"};
  Status s =
      MakeSelfSigned(certs.server_ca, "/CN=propscaler-test-server-ca", "");
  if (s.ok()) {
    s = MakeSigned(certs.server, certs.server_ca, kServerSubject, kServerSan);
  }
  if (s.ok()) s = MakeSelfSigned(certs.client_ca, "/CN=propscaler-test-ca", "");
  if (s.ok()) {
    s = MakeSigned(certs.client, certs.client_ca, "/CN=propscaler-test", "");
  }
  if (!s.ok()) return s;
  return certs;
}

Status ReissueServerCert(const TestCerts& certs) {
  const CertFiles next = {certs.server.cert_file + ".next",
                          certs.server.key_file + ".next"};
  Status s = MakeSigned(next, certs.server_ca, kServerSubject, kServerSan);
  if (!s.ok()) return s;
  // Overwritten in place, as `kubeadm certs renew` does: a watcher of the
  // files sees them written (a rename over them may go unseen until its
  // next resync). The key first: a reload that sees the new certificate
  // finds its key.
  for (const auto& [from, to] :
       {std::pair(next.key_file, certs.server.key_file),
        std::pair(next.cert_file, certs.server.cert_file)}) {
    std::error_code ec;
    std::filesystem::copy_file(
        from, to, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) {
      return Status::Internal("cannot write the new server certificate to " +
                              to + ": " + ec.message());
    }
  }
  return Status::Ok();
}

}  // namespace propscaler::sim
