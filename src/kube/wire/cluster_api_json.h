// The JSON of Cluster API objects (v1beta1 and v1beta2) and the
// annotation patch of a Machine.
#ifndef PROPSCALER_KUBE_WIRE_CLUSTER_API_JSON_H_
#define PROPSCALER_KUBE_WIRE_CLUSTER_API_JSON_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kube/model/cluster_api.h"
#include "kube/model/list_watch.h"

namespace propscaler::kube {

// Lists and watch events of any of the three kinds. List items without
// metadata are skipped.
ListWatchCodec<ClusterApiObject> ClusterApiCodec();

// An infrastructure machine template's status.capacity and
// status.nodeInfo; `what` names it in errors.
Result<InfrastructureTemplate> DecodeInfrastructureTemplate(
    std::string_view json, const std::string& what);

// A merge patch that sets one annotation to `value`, or removes it when
// nullopt, and changes nothing else.
std::string EncodeAnnotationPatch(const std::string& key,
                                  const std::optional<std::string>& value);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_CLUSTER_API_JSON_H_
