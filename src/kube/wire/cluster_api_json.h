// The JSON of Cluster API (cluster.x-k8s.io/v1beta1) objects and the
// annotation patch of a Machine.
#ifndef PROPSCALER_KUBE_WIRE_CLUSTER_API_JSON_H_
#define PROPSCALER_KUBE_WIRE_CLUSTER_API_JSON_H_

#include <optional>
#include <string>

#include "kube/model/cluster_api.h"
#include "kube/model/list_watch.h"

namespace propscaler::kube {

inline constexpr char kClusterApiPrefix[] = "/apis/cluster.x-k8s.io/v1beta1";

// Lists and watch events of any of the three kinds. List items without
// metadata are skipped.
ListWatchCodec<ClusterApiObject> ClusterApiCodec();

// A merge patch that sets one annotation to `value`, or removes it when
// nullopt, and changes nothing else.
std::string EncodeAnnotationPatch(const std::string& key,
                                  const std::optional<std::string>& value);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_CLUSTER_API_JSON_H_
