// Cluster API (cluster.x-k8s.io/v1beta1) objects as node-scale mode's
// provider reads them: MachineDeployments, MachineSets and Machines, each
// with only the fields the provider uses.
#ifndef PROPSCALER_KUBE_CLUSTER_API_H_
#define PROPSCALER_KUBE_CLUSTER_API_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/label_selector.h"
#include "common/status.h"
#include "kube/list_watch.h"

namespace propscaler::kube {

inline constexpr char kClusterApiPrefix[] = "/apis/cluster.x-k8s.io/v1beta1";

struct ClusterApiObject {
  std::string namespace_;
  std::string name;
  Labels labels;
  Labels annotations;
  std::vector<std::string> owner_kinds;  // metadata.ownerReferences[].kind
  std::optional<int64_t> replicas;       // spec.replicas
  std::string provider_id;               // spec.providerID (Machines)
  std::string resource_version;
};

// Lists and watch events of any of the three kinds. List items without
// metadata are skipped.
ListWatchCodec<ClusterApiObject> ClusterApiCodec();

// A merge patch that sets one annotation to `value`, or removes it when
// nullopt, and changes nothing else.
std::string EncodeAnnotationPatch(const std::string& key,
                                  const std::optional<std::string>& value);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CLUSTER_API_H_
