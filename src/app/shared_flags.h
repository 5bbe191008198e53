// The flags both modes share (--kubeconfig, --namespace, --healthz-port,
// --api-idle-timeout-seconds, --mode, --once, --dry-run) and the one place
// that turns them into a client config, API options and a namespace.
#ifndef PROPSCALER_APP_SHARED_FLAGS_H_
#define PROPSCALER_APP_SHARED_FLAGS_H_

#include <gflags/gflags.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "transport/api.h"
#include "transport/client_config.h"

DECLARE_string(kubeconfig);
DECLARE_string(namespace);
DECLARE_int32(healthz_port);
DECLARE_int32(api_idle_timeout_seconds);
DECLARE_string(mode);
DECLARE_bool(once);
DECLARE_bool(dry_run);

namespace propscaler {

// Exit code for bad usage: a bad flag, a missing or unreadable config.
inline constexpr int kExitUsage = 2;

// The environment variable `name`, or "" when unset.
std::string EnvOrEmpty(const char* name);

// Checks the shared flags; each mode checks its own.
Status CheckSharedFlags();

// An error naming the first of `flags` (gflags names) given explicitly
// empty (--pod-selector=): for these, empty means "off", which leaving the
// flag out already says, so an empty value is a mistake (a manifest's unset
// variable, say) rather than a choice.
Status RefuseExplicitlyEmpty(const std::vector<std::string>& flags);

// --kubeconfig, else the in-cluster service account.
Result<kube::ClientConfig> LoadClientConfigFromFlags();

kube::KubeApiOptions ApiOptionsFromFlags();

// Where a namespace may come from, most specific first.
struct NamespaceSources {
  std::string flag;           // --namespace
  std::string pod_env;        // $MY_POD_NAMESPACE (or pod_env_name's)
  std::string client_config;  // the kubeconfig context's, or the pod's
  std::string pod_env_name = "MY_POD_NAMESPACE";
};

// The first non-empty source, else `fallback`; an error when that is empty
// too, or when the chosen value is not a DNS-1123 label (the error names
// where it came from). Pure.
Result<std::string> ResolveNamespace(const NamespaceSources& sources,
                                     std::string_view fallback);

// ResolveNamespace with --namespace, $MY_POD_NAMESPACE and `config`'s.
Result<std::string> NamespaceFromFlags(const kube::ClientConfig& config,
                                       std::string_view fallback);

}  // namespace propscaler

#endif  // PROPSCALER_APP_SHARED_FLAGS_H_
