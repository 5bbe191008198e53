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
#include "kube/model/node_scale_objects.h"

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

// spec.template.spec.infrastructureRef of a MachineDeployment, MachineSet
// or MachinePool: the infrastructure provider's machine template. v1beta1
// names its apiVersion, v1beta2 only its apiGroup.
struct InfrastructureRef {
  std::string
      api_version;  // v1beta1, e.g. "infrastructure.cluster.x-k8s.io/v1beta1"
  std::string api_group;  // v1beta2
  std::string kind;
  std::string name;

  // api_group, else the group of api_version ("" for the core group).
  std::string Group() const {
    if (!api_group.empty()) return api_group;
    const size_t slash = api_version.find('/');
    return slash == std::string::npos ? "" : api_version.substr(0, slash);
  }
  // The version api_version names; "" under v1beta2 (discovery says).
  std::string Version() const {
    const size_t slash = api_version.find('/');
    return slash == std::string::npos ? "" : api_version.substr(slash + 1);
  }
  bool empty() const { return kind.empty() || name.empty(); }
  bool operator==(const InfrastructureRef&) const = default;
};

// What an infrastructure machine template tells an autoscaler about the
// nodes it makes (Cluster API's optional "autoscaling from zero" contract).
struct InfrastructureTemplate {
  Labels capacity;               // status.capacity: resource -> quantity
  std::string architecture;      // status.nodeInfo.architecture
  std::string operating_system;  // status.nodeInfo.operatingSystem
  bool operator==(const InfrastructureTemplate&) const = default;
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
  int64_t status_replicas = 0;            // status.replicas
  std::string provider_id;                // spec.providerID (Machines)
  bool deleting = false;                  // metadata.deletionTimestamp set
  std::string cluster_name;               // spec.clusterName
  std::vector<std::string> provider_ids;  // spec.providerIDList (pools)
  // The machines' template (groups only).
  InfrastructureRef infrastructure_ref;  // spec.template.spec.infrastructureRef
  Labels machine_labels;                 // spec.template.metadata.labels
  std::vector<Taint> machine_taints;     // spec.template.spec.taints (v1beta2)
  std::string resource_version;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_CLUSTER_API_H_
