// Throwaway certificates for tests of HTTPS and client-certificate
// authentication, made with the openssl command-line tool in a new
// temporary directory: a self-signed server certificate for 127.0.0.1 (also
// the CA clients trust), and a client CA with one client certificate.
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
  CertFiles server;     // CN=127.0.0.1, SAN IP:127.0.0.1, self-signed
  CertFiles client_ca;  // signs `client`
  CertFiles client;     // CN=propscaler-test
  // Removes `dir` when the last copy of these certs is gone.
  std::shared_ptr<void> dir_owner;
};

// Valid for one day, in a directory removed with them. Errors say which
// openssl step failed.
Result<TestCerts> MakeTestCerts();

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_TEST_CERTS_H_
