// Where the API server is and how to authenticate to it: from the in-cluster
// service account or from a kubeconfig file.
#ifndef PROPSCALER_TRANSPORT_CLIENT_CONFIG_H_
#define PROPSCALER_TRANSPORT_CLIENT_CONFIG_H_

#include <string>

#include "common/status.h"

namespace propscaler::kube {

struct ClientConfig {
  std::string server;  // "https://host:port" or "http://host:port"
  // TLS trust: a CA bundle file or its PEM text; neither means system CAs.
  std::string ca_file;
  std::string ca_pem;
  bool insecure_skip_tls_verify = false;
  // Credentials: a bearer token, or a file re-read as it rotates; and/or a
  // client certificate and key, as files or PEM text.
  std::string token;
  std::string token_file;
  std::string client_cert_file;
  std::string client_cert_pem;
  std::string client_key_file;
  std::string client_key_pem;
  std::string namespace_;  // the default namespace, may be empty
  // Where a process talks to two clusters: the "cluster" label of this
  // connection's propscaler_api_* metrics; empty: no such label.
  std::string metrics_cluster;
};

// Reads a kubeconfig file (YAML) and resolves its current context. Relative
// file paths in it are taken relative to the kubeconfig's folder, as kubectl
// does. Errors name the file and the missing or bad field.
// Reads and parses a kubeconfig file, then CheckClientConfig.
Result<ClientConfig> LoadKubeconfig(const std::string& path);

// What can be known before the first request: the server is a well-formed
// http(s) URL; every file named (CA, token, client certificate and key) is
// readable now, certificates and keys hold PEM, a token file is not empty;
// *-data fields decode to PEM; a client certificate comes with its key.
// Errors name the field and the bad value (never a credential).
Status CheckClientConfig(const ClientConfig& config);

// Same, from YAML text; `base_dir` resolves relative paths.
Result<ClientConfig> ParseKubeconfig(const std::string& yaml,
                                     const std::string& base_dir);

// The pod's service account: KUBERNETES_SERVICE_HOST/PORT and the files under
// `account_dir` (normally /var/run/secrets/kubernetes.io/serviceaccount).
Result<ClientConfig> LoadInClusterConfig(const std::string& account_dir);

inline constexpr char kServiceAccountDir[] =
    "/var/run/secrets/kubernetes.io/serviceaccount";

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_CLIENT_CONFIG_H_
