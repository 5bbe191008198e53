#include "app/cluster_api_version.h"

#include <algorithm>

#include "transport/api_discovery.h"

namespace propscaler {

Result<kube::ClusterApiVersion> ResolveClusterApiVersion(
    const kube::KubeApi& api, const std::string& group_env,
    const std::string& version_env) {
  kube::ClusterApiVersion chosen;
  if (!group_env.empty()) chosen.group = group_env;
  if (!version_env.empty()) {
    chosen.version = version_env;
    return chosen;
  }
  Result<std::string> version =
      kube::ApiDiscovery(&api).PreferredVersion(chosen.group);
  if (!version.ok()) {
    return version.status().WithContext(
        "discovering the served version of API group " + chosen.group +
        " (install Cluster API's CRDs, grant get on /apis/" + chosen.group +
        ", or set CAPI_VERSION)");
  }
  chosen.version = *version;
  return chosen;
}

Result<std::optional<kube::ClientConfig>> ManagementClusterConfig(
    const std::string& cloud_config, bool authoritative) {
  if (!cloud_config.empty()) {
    Result<kube::ClientConfig> config = kube::LoadKubeconfig(cloud_config);
    if (!config.ok()) {
      return config.status().WithContext(
          "--cloud-config (the management cluster's kubeconfig)");
    }
    return std::optional<kube::ClientConfig>(*std::move(config));
  }
  if (!authoritative) return std::optional<kube::ClientConfig>();
  Result<kube::ClientConfig> config =
      kube::LoadInClusterConfig(kube::kServiceAccountDir);
  if (!config.ok()) {
    return config.status().WithContext(
        "--clusterapi-cloud-config-authoritative without --cloud-config: "
        "the management cluster is the one propscaler runs in");
  }
  return std::optional<kube::ClientConfig>(*std::move(config));
}

Result<bool> ClusterApiServes(const kube::KubeApi& api,
                              const kube::ClusterApiVersion& version,
                              const std::string& resource) {
  Result<std::vector<std::string>> names =
      kube::ApiDiscovery(&api).Resources(version.GroupVersion());
  if (!names.ok()) {
    return names.status().WithContext("discovering the resources of " +
                                      version.GroupVersion());
  }
  return std::find(names->begin(), names->end(), resource) != names->end();
}

Status StillServed(const kube::KubeApi& api,
                   const kube::ClusterApiVersion& version, bool pinned,
                   const std::string& resource, const Status& watch_error) {
  if (watch_error.code() != StatusCode::kNotFound) return Status::Ok();
  Result<bool> served = ClusterApiServes(api, version, resource);
  if (served.ok() ? *served : served.status().code() != StatusCode::kNotFound) {
    return Status::Ok();
  }
  return Status::NotFound(
      version.GroupVersion() + " no longer serves " + resource + " (" +
      watch_error.message() +
      "): its CRD stopped serving that version. Exiting, so that a restart "
      "discovers the version served now" +
      (pinned
           ? "; CAPI_VERSION pins " + version.version + ": change or unset it"
           : std::string()));
}

}  // namespace propscaler
