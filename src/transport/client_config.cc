#include "transport/client_config.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "common/files.h"

namespace propscaler::kube {
namespace {

// The scalar at `key` of a map, or "" (also for other node types).
std::string Scalar(const YAML::Node& node, const char* key) {
  if (!node.IsMap()) return "";
  const YAML::Node value = node[key];
  if (!value || !value.IsScalar()) return "";
  return value.as<std::string>();
}

// Finds the entry named `name` in a kubeconfig list such as `clusters`, and
// returns its inner object (`cluster`, `user` or `context`).
Result<YAML::Node> FindNamed(const YAML::Node& root, const std::string& list,
                             const std::string& inner,
                             const std::string& name) {
  const YAML::Node entries = root[list];
  if (entries && entries.IsSequence()) {
    for (const auto& entry : entries) {
      if (!entry.IsMap() || Scalar(entry, "name") != name) continue;
      if (!entry[inner]) return YAML::Node(YAML::NodeType::Map);
      return entry[inner];
    }
  }
  return Status::Invalid("kubeconfig: no entry named \"" + name + "\" in " +
                         list);
}

std::string ResolvePath(const std::string& path, const std::string& base_dir) {
  if (path.empty() || path.front() == '/' || base_dir.empty()) return path;
  return (std::filesystem::path(base_dir) / path).string();
}

// Decodes a `*-data` field (base64 PEM) into `pem`.
Status DecodeData(const YAML::Node& node, const char* key, std::string* pem) {
  const std::string data = Scalar(node, key);
  if (data.empty()) return Status::Ok();
  Result<std::string> decoded = DecodeBase64(data);
  if (!decoded.ok())
    return decoded.status().WithContext(std::string("kubeconfig: ") + key);
  *pem = std::move(decoded).value();
  return Status::Ok();
}

Status ReadCluster(const YAML::Node& cluster, const std::string& base_dir,
                   ClientConfig* config) {
  config->server = Scalar(cluster, "server");
  if (config->server.empty()) {
    return Status::Invalid("kubeconfig: cluster has no server");
  }
  config->ca_file =
      ResolvePath(Scalar(cluster, "certificate-authority"), base_dir);
  config->insecure_skip_tls_verify =
      Scalar(cluster, "insecure-skip-tls-verify") == "true";
  return DecodeData(cluster, "certificate-authority-data", &config->ca_pem);
}

Status ReadUser(const YAML::Node& user, const std::string& base_dir,
                ClientConfig* config) {
  config->token = Scalar(user, "token");
  config->token_file = ResolvePath(Scalar(user, "tokenFile"), base_dir);
  config->client_cert_file =
      ResolvePath(Scalar(user, "client-certificate"), base_dir);
  config->client_key_file = ResolvePath(Scalar(user, "client-key"), base_dir);
  Status status =
      DecodeData(user, "client-certificate-data", &config->client_cert_pem);
  if (!status.ok()) return status;
  return DecodeData(user, "client-key-data", &config->client_key_pem);
}

// ParseKubeconfig's work; yaml-cpp may throw on shapes it cannot read.
Result<ClientConfig> ParseKubeconfigOrThrow(const std::string& yaml,
                                            const std::string& base_dir) {
  const YAML::Node root = YAML::Load(yaml);
  if (!root.IsMap()) return Status::Invalid("kubeconfig is not a YAML map");
  const std::string context_name = Scalar(root, "current-context");
  if (context_name.empty()) {
    return Status::Invalid("kubeconfig: current-context is not set");
  }
  Result<YAML::Node> context =
      FindNamed(root, "contexts", "context", context_name);
  if (!context.ok()) return context.status();
  ClientConfig config;
  config.namespace_ = Scalar(*context, "namespace");

  const std::string cluster_name = Scalar(*context, "cluster");
  Result<YAML::Node> cluster =
      FindNamed(root, "clusters", "cluster", cluster_name);
  if (!cluster.ok()) return cluster.status();
  if (Status s = ReadCluster(*cluster, base_dir, &config); !s.ok()) return s;

  const std::string user_name = Scalar(*context, "user");
  if (!user_name.empty()) {
    Result<YAML::Node> user = FindNamed(root, "users", "user", user_name);
    if (!user.ok()) return user.status();
    if (Status s = ReadUser(*user, base_dir, &config); !s.ok()) return s;
  }
  return config;
}

bool LooksLikePem(const std::string& text) {
  return text.find("-----BEGIN ") != std::string::npos;
}

// scheme://host[:port][/path], the scheme http or https.
Status CheckServerUrl(const std::string& server) {
  auto bad = [&](const std::string& why) {
    return Status::Invalid("server \"" + server + "\": " + why +
                           " (want e.g. https://10.0.0.1:6443)");
  };
  size_t rest = 0;
  if (server.rfind("https://", 0) == 0) {
    rest = 8;
  } else if (server.rfind("http://", 0) == 0) {
    rest = 7;
  } else {
    return bad("the scheme is not http or https");
  }
  const std::string authority =
      server.substr(rest, server.find('/', rest) - rest);
  if (server.find_first_of(" \t\r\n") != std::string::npos) {
    return bad("contains white space");
  }
  const size_t bracket = authority.rfind(']');
  const size_t colon = authority.rfind(':');
  const bool has_port = colon != std::string::npos &&
                        (bracket == std::string::npos || colon > bracket);
  const std::string host = has_port ? authority.substr(0, colon) : authority;
  if (host.empty() || host == "[]") return bad("no host");
  if (!has_port) return Status::Ok();
  const std::string port = authority.substr(colon + 1);
  int number = 0;
  const auto [end, error] =
      std::from_chars(port.data(), port.data() + port.size(), number);
  if (port.empty() || error != std::errc() ||
      end != port.data() + port.size() || number < 1 || number > 65535) {
    return bad("port \"" + port + "\" is not a number from 1 to 65535");
  }
  return Status::Ok();
}

// A file the configuration names: it must be readable now, and hold PEM
// when it is a certificate or key.
Status CheckFile(const char* field, const std::string& path, bool pem) {
  if (path.empty()) return Status::Ok();
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status().WithContext(field);
  if (pem && !LooksLikePem(*text)) {
    return Status::Invalid(std::string(field) + " " + path +
                           " holds no PEM block");
  }
  if (!pem && text->find_first_not_of(" \t\r\n") == std::string::npos) {
    return Status::Invalid(std::string(field) + " " + path + " is empty");
  }
  return Status::Ok();
}

Status CheckPemData(const char* field, const std::string& pem) {
  if (pem.empty() || LooksLikePem(pem)) return Status::Ok();
  return Status::Invalid(std::string(field) +
                         " is base64 but not of a PEM block");
}

}  // namespace

Status CheckClientConfig(const ClientConfig& config) {
  std::vector<Status> checks = {
      CheckServerUrl(config.server),
      CheckFile("certificate-authority", config.ca_file, true),
      CheckFile("tokenFile", config.token_file, false),
      CheckFile("client-certificate", config.client_cert_file, true),
      CheckFile("client-key", config.client_key_file, true),
      CheckPemData("certificate-authority-data", config.ca_pem),
      CheckPemData("client-certificate-data", config.client_cert_pem),
      CheckPemData("client-key-data", config.client_key_pem)};
  for (const Status& check : checks) {
    if (!check.ok()) return check;
  }
  const bool has_cert =
      !config.client_cert_file.empty() || !config.client_cert_pem.empty();
  const bool has_key =
      !config.client_key_file.empty() || !config.client_key_pem.empty();
  if (has_cert != has_key) {
    return Status::Invalid(has_cert
                               ? "a client certificate without its client-key"
                               : "a client-key without its client certificate");
  }
  return Status::Ok();
}

Result<ClientConfig> ParseKubeconfig(const std::string& yaml,
                                     const std::string& base_dir) {
  try {
    return ParseKubeconfigOrThrow(yaml, base_dir);
  } catch (const YAML::Exception& e) {
    // yaml-cpp's messages name a position and a key, never a value, so no
    // credential can leak through them.
    return Status::Invalid(std::string("kubeconfig is not valid YAML: ") +
                           e.what());
  }
}

Result<ClientConfig> LoadKubeconfig(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  Result<ClientConfig> config = ParseKubeconfig(
      *text, std::filesystem::path(path).parent_path().string());
  if (!config.ok()) return config.status().WithContext(path);
  if (Status valid = CheckClientConfig(*config); !valid.ok()) {
    return valid.WithContext(path);
  }
  return config;
}

Result<ClientConfig> LoadInClusterConfig(const std::string& account_dir) {
  const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
  const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
  if (host == nullptr || port == nullptr || *host == '\0') {
    return Status::Invalid(
        "not running in a cluster (KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT are unset); pass --kubeconfig");
  }
  ClientConfig config;
  std::string host_text = host;
  if (host_text.find(':') != std::string::npos)
    host_text = "[" + host_text + "]";
  config.server = "https://" + host_text + ":" + port;
  config.token_file = account_dir + "/token";
  config.ca_file = account_dir + "/ca.crt";
  Result<std::string> ns = ReadFile(account_dir + "/namespace");
  if (ns.ok()) config.namespace_ = *ns;
  if (Status valid = CheckClientConfig(config); !valid.ok()) {
    return valid.WithContext("in-cluster service account");
  }
  return config;
}

}  // namespace propscaler::kube
