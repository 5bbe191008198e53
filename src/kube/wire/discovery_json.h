// The API server's discovery documents (GET /apis/GROUP: an APIGroup;
// GET /api/v1 and /apis/GROUP/VERSION: an APIResourceList), decoded; the
// requests are transport/api_discovery.h's. Errors name the group or
// group/version. Pure.
#ifndef PROPSCALER_KUBE_WIRE_DISCOVERY_JSON_H_
#define PROPSCALER_KUBE_WIRE_DISCOVERY_JSON_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler::kube {

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

// The resource names (e.g. "machinepools", "machinepools/scale") of an
// APIResourceList discovery document (GET /apis/GROUP/VERSION).
Result<std::vector<std::string>> DecodeResourceNames(
    std::string_view resource_list, const std::string& group_version);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_DISCOVERY_JSON_H_
