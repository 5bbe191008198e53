// Throwaway certificates for tests of HTTPS and client-certificate
// authentication, made with the openssl command-line tool in a new
// temporary directory: a server CA (what clients trust) with a server
// certificate for 127.0.0.1, and a client CA with one client certificate.
#ifndef PROPSCALER_TESTS_APISERVER_TEST_CERTS_H_
#define PROPSCALER_TESTS_APISERVER_TEST_CERTS_H_

#include <memory>
#include <string>

#include "common/status.h"

namespace propscaler::sim {

struct CertFiles {
  std::string cert_file;
  std::string key_file;
};

struct TestCerts {
  std::string dir;
  CertFiles server_ca;  // self-signed; signs `server`
  CertFiles server;     // CN=127.0.0.1, SAN IP:127.0.0.1
  CertFiles client_ca;  // signs `client`
  CertFiles client;     // CN=propscaler-test
  // Removes `dir` when the last copy of these certs is gone.
  std::shared_ptr<void> dir_owner;
};

// Valid for one day, in a directory removed with them. Errors say which
// openssl step failed.
Result<TestCerts> MakeTestCerts();

// A new key and certificate for `certs.server` from the same server CA,
// written over the old files: a renewed serving certificate.
Status ReissueServerCert(const TestCerts& certs);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_TEST_CERTS_H_
