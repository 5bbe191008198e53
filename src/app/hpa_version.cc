#include "app/hpa_version.h"

#include <algorithm>

#include "transport/api_discovery.h"

namespace propscaler {

Result<std::string> ResolveHpaVersion(const kube::KubeApi& api) {
  Result<std::vector<std::string>> versions =
      kube::ApiDiscovery(&api).GroupVersions("autoscaling");
  if (!versions.ok()) {
    return versions.status().WithContext(
        "discovering the versions of API group autoscaling for --hpa-floor");
  }
  const bool v2 =
      std::find(versions->begin(), versions->end(), "v2") != versions->end();
  return std::string(v2 ? "v2" : "v1");
}

}  // namespace propscaler
