#include "app/hpa_version.h"

#include <algorithm>

#include "kube/wire/cluster_api_json.h"

namespace propscaler {

Result<std::string> ResolveHpaVersion(const kube::KubeApi& api) {
  Result<std::string> answer = api.Call({.path = "/apis/autoscaling"});
  if (!answer.ok()) {
    return answer.status().WithContext(
        "discovering the versions of API group autoscaling for --hpa-floor "
        "(GET /apis/autoscaling)");
  }
  Result<std::vector<std::string>> versions =
      kube::DecodeGroupVersions(*answer, "autoscaling");
  if (!versions.ok()) return versions.status();
  const bool v2 =
      std::find(versions->begin(), versions->end(), "v2") != versions->end();
  return std::string(v2 ? "v2" : "v1");
}

}  // namespace propscaler
