// Cluster API (cluster.x-k8s.io/v1beta1) objects as node-scale mode's
// provider reads them: MachineDeployments, MachineSets and Machines, each
// with only the fields the provider uses (their JSON:
// wire/cluster_api_json.h).
#ifndef PROPSCALER_KUBE_MODEL_CLUSTER_API_H_
#define PROPSCALER_KUBE_MODEL_CLUSTER_API_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/label_selector.h"

namespace propscaler::kube {

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
  std::vector<ClusterApiOwner> owners;  // metadata.ownerReferences
  std::optional<int64_t> replicas;      // spec.replicas
  std::string provider_id;              // spec.providerID (Machines)
  std::string resource_version;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_CLUSTER_API_H_
