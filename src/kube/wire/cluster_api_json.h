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

// The preferredVersion.version of an APIGroup discovery document (GET
// /apis/GROUP); an error naming the group when there is none.
Result<std::string> DecodePreferredVersion(std::string_view api_group,
                                           const std::string& group);

// The versions of an APIGroup discovery document (GET /apis/GROUP), in
// the server's order (the preferred first).
Result<std::vector<std::string>> DecodeGroupVersions(std::string_view api_group,
                                                     const std::string& group);

// The resource (not a subresource) of kind `kind` in an APIResourceList
// discovery document (GET /apis/GROUP/VERSION); "" when none.
Result<std::string> DecodeResourceOfKind(std::string_view resource_list,
                                         const std::string& group_version,
                                         const std::string& kind);

// An infrastructure machine template's status.capacity and
// status.nodeInfo; `what` names it in errors.
Result<InfrastructureTemplate> DecodeInfrastructureTemplate(
    std::string_view json, const std::string& what);

// The resource names (e.g. "machinepools", "machinepools/scale") of an
// APIResourceList discovery document (GET /apis/GROUP/VERSION).
Result<std::vector<std::string>> DecodeResourceNames(
    std::string_view resource_list, const std::string& group_version);

// A merge patch that sets one annotation to `value`, or removes it when
// nullopt, and changes nothing else.
std::string EncodeAnnotationPatch(const std::string& key,
                                  const std::optional<std::string>& value);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_CLUSTER_API_JSON_H_
