// Cluster API objects as node-scale mode's provider reads them:
// MachineDeployments, MachineSets, Machines and MachinePools, each with
// only the fields
// the provider uses, which v1beta1 and v1beta2 spell alike (their JSON:
// wire/cluster_api_json.h); and the group and version they are served in.
#ifndef PROPSCALER_KUBE_MODEL_CLUSTER_API_H_
#define PROPSCALER_KUBE_MODEL_CLUSTER_API_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/label_selector.h"

namespace propscaler::kube {

// Where Cluster API's objects are read and written: Cluster Autoscaler's
// CAPI_GROUP (its annotation keys follow it too) and CAPI_VERSION, else the
// group's preferred version as the server's discovery gives it.
struct ClusterApiVersion {
  std::string group = "cluster.x-k8s.io";
  std::string version = "v1beta1";

  std::string GroupVersion() const { return group + "/" + version; }
  std::string Prefix() const { return "/apis/" + GroupVersion(); }
};

// One of metadata.ownerReferences.
struct ClusterApiOwner {
  std::string kind;
  std::string name;
  bool operator==(const ClusterApiOwner&) const = default;
};

struct ClusterApiObject {
  std::string namespace_;
  std::string name;
  Labels labels;
  Labels annotations;
  std::vector<ClusterApiOwner> owners;    // metadata.ownerReferences
  std::optional<int64_t> replicas;        // spec.replicas
  std::string provider_id;                // spec.providerID (Machines)
  bool deleting = false;                  // metadata.deletionTimestamp set
  std::string cluster_name;               // spec.clusterName
  std::vector<std::string> provider_ids;  // spec.providerIDList (pools)
  std::string resource_version;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_CLUSTER_API_H_
