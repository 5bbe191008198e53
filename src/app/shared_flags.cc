#include "app/shared_flags.h"

#include <cstdlib>

#include "common/object_names.h"

DEFINE_string(kubeconfig, "",
              "kubeconfig file; default: the in-cluster service account.");
DEFINE_string(namespace, "",
              "Namespace to work in (replica mode: of the ConfigMap and the "
              "targets); default: $MY_POD_NAMESPACE, then the kubeconfig "
              "context's namespace (node-scale mode: then kube-system).");
DEFINE_int32(healthz_port, 8080,
             "Port of /healthz and /last-poll; 0 turns the server off.");
DEFINE_int32(api_idle_timeout_seconds, 120,
             "Abandon and retry an API request or watch on which nothing "
             "arrives for this long (servers send watch bookmarks about once "
             "a minute).");
DEFINE_string(mode, "replicas",
              "replicas (the default), vertical or node-scale.");
DEFINE_bool(once, false,
            "Run one cycle and exit: 0 on success, 1 on any failure.");
DEFINE_bool(dry_run, false, "Compute and log, but write nothing.");

namespace propscaler {

std::string EnvOrEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

Status CheckSharedFlags() {
  if (FLAGS_healthz_port < 0 || FLAGS_healthz_port > 65535) {
    return Status::Invalid(
        "--healthz-port=" + std::to_string(FLAGS_healthz_port) +
        ": want a port from 1 to 65535, or 0 for none");
  }
  if (FLAGS_api_idle_timeout_seconds < 1) {
    return Status::Invalid("--api-idle-timeout-seconds=" +
                           std::to_string(FLAGS_api_idle_timeout_seconds) +
                           ": want at least 1");
  }
  if (FLAGS_mode != "replicas" && FLAGS_mode != "node-scale" &&
      FLAGS_mode != "vertical") {
    return Status::Invalid("--mode=" + FLAGS_mode +
                           ": want replicas, vertical or node-scale");
  }
  return Status::Ok();
}

Status RefuseExplicitlyEmpty(const std::vector<std::string>& flags) {
  for (const std::string& name : flags) {
    gflags::CommandLineFlagInfo info;
    if (!gflags::GetCommandLineFlagInfo(name.c_str(), &info) ||
        info.is_default || !info.current_value.empty()) {
      continue;
    }
    std::string dashed = name;
    for (char& c : dashed) c = c == '_' ? '-' : c;
    return Status::Invalid("--" + dashed +
                           "= is empty: give it a value, or leave the flag "
                           "out (" +
                           info.description + ")");
  }
  return Status::Ok();
}

Result<kube::ClientConfig> LoadClientConfigFromFlags() {
  if (!FLAGS_kubeconfig.empty()) return kube::LoadKubeconfig(FLAGS_kubeconfig);
  return kube::LoadInClusterConfig(kube::kServiceAccountDir);
}

kube::KubeApiOptions ApiOptionsFromFlags() {
  return {.idle_timeout = std::chrono::seconds(FLAGS_api_idle_timeout_seconds)};
}

Result<std::string> ResolveNamespace(const NamespaceSources& sources,
                                     std::string_view fallback) {
  const std::string from_env = "namespace (from " + sources.pod_env_name + ")";
  const struct {
    const std::string& value;
    const std::string& what;
  } candidates[] = {
      {sources.flag, "namespace"},
      {sources.pod_env, from_env},
      {sources.client_config, "namespace (from the kubeconfig)"},
  };
  for (const auto& candidate : candidates) {
    if (candidate.value.empty()) continue;
    if (Status valid = CheckDns1123Label(candidate.what, candidate.value);
        !valid.ok()) {
      return valid;
    }
    return candidate.value;
  }
  if (fallback.empty()) {
    return Status::Invalid("no namespace: pass --namespace or set " +
                           sources.pod_env_name);
  }
  return std::string(fallback);
}

Result<std::string> NamespaceFromFlags(const kube::ClientConfig& config,
                                       std::string_view fallback) {
  const char* env = std::getenv("MY_POD_NAMESPACE");
  return ResolveNamespace(
      {FLAGS_namespace, env == nullptr ? "" : env, config.namespace_},
      fallback);
}

}  // namespace propscaler
