// Which group and version node-scale mode's Cluster API provider reads and
// writes, chosen as Cluster Autoscaler chooses them: the group from
// CAPI_GROUP (default cluster.x-k8s.io; its annotation keys follow it), the
// version from CAPI_VERSION when set, else the group's preferred version in
// the server's discovery (GET /apis/GROUP): v1beta2 on Cluster API 1.11 and
// later, whose CRDs serve v1beta1 only as deprecated.
#ifndef PROPSCALER_APP_CLUSTER_API_VERSION_H_
#define PROPSCALER_APP_CLUSTER_API_VERSION_H_

#include <optional>
#include <string>

#include "common/status.h"
#include "kube/model/cluster_api.h"
#include "transport/api.h"
#include "transport/client_config.h"

namespace propscaler {

// The management cluster's connection, as Cluster Autoscaler picks it:
// `cloud_config`'s kubeconfig; else, when `authoritative`, the in-cluster
// config; else nullopt: the workload cluster's own.
Result<std::optional<kube::ClientConfig>> ManagementClusterConfig(
    const std::string& cloud_config, bool authoritative);

// Whether the chosen version serves `resource` (GET /apis/GROUP/VERSION), as
// Cluster Autoscaler asks before watching MachinePools. Errors name the
// request.
Result<bool> ClusterApiServes(const kube::KubeApi& api,
                              const kube::ClusterApiVersion& version,
                              const std::string& resource);

// After a Cluster API watch of `resource` failed with `watch_error`: an
// error saying `version` no longer serves it (its CRD stopped serving that
// version while propscaler ran) when `watch_error` is a 404 and discovery
// (GET /apis/GROUP/VERSION) confirms it; OK otherwise, and without a
// request unless the watch got a 404. `pinned`: CAPI_VERSION chose it.
Status StillServed(const kube::KubeApi& api,
                   const kube::ClusterApiVersion& version, bool pinned,
                   const std::string& resource, const Status& watch_error);

// `group_env` and `version_env`: the variables' values ("" when unset).
// Errors say what was asked and what the server answered.
Result<kube::ClusterApiVersion> ResolveClusterApiVersion(
    const kube::KubeApi& api, const std::string& group_env,
    const std::string& version_env);

}  // namespace propscaler

#endif  // PROPSCALER_APP_CLUSTER_API_VERSION_H_
