// Cluster Autoscaler's --node-group-auto-discovery for the clusterapi
// provider: "clusterapi:key=value,key=value". Key namespace limits groups
// to one namespace, clusterName to one cluster (spec.clusterName, else the
// GROUP/cluster-name label), and every other key is a label the group
// object must carry with that value. Pairs of one spec are ANDed; specs
// (the flag given again) are ORed; no spec admits every object.
#ifndef PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_DISCOVERY_H_
#define PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_DISCOVERY_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/label_selector.h"
#include "common/status.h"
#include "kube/model/cluster_api.h"

namespace propscaler::nodescale {

struct ClusterApiDiscoverySpec {
  std::string namespace_;    // empty: any
  std::string cluster_name;  // empty: any
  LabelSelector labels;      // key=value requirements
  bool operator==(const ClusterApiDiscoverySpec&) const = default;
};

// One spec; errors quote it and say what is wrong.
Result<ClusterApiDiscoverySpec> ParseClusterApiDiscoverySpec(
    std::string_view spec);
// Every spec of the flag's values (an empty value is no spec).
Result<std::vector<ClusterApiDiscoverySpec>> ParseClusterApiDiscovery(
    const std::vector<std::string>& specs);

// Whether `object` (a MachineDeployment or MachineSet) may be a node group:
// some spec admits it, or there is none. `cluster_name_label` is
// GROUP/cluster-name.
bool AllowedByDiscovery(const std::vector<ClusterApiDiscoverySpec>& specs,
                        const kube::ClusterApiObject& object,
                        const std::string& cluster_name_label);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_DISCOVERY_H_
