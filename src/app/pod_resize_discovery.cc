#include "app/pod_resize_discovery.h"

#include <algorithm>

#include "transport/api_discovery.h"

namespace propscaler {

Result<bool> ServesPodResize(const kube::KubeApi& api) {
  Result<std::vector<std::string>> names =
      kube::ApiDiscovery(&api).Resources("v1");
  if (!names.ok()) {
    return names.status().WithContext(
        "discovering whether the server serves pods/resize, for "
        "--resize=in-place");
  }
  return std::find(names->begin(), names->end(), "pods/resize") != names->end();
}

}  // namespace propscaler
