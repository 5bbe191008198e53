#include "app/pod_resize_discovery.h"

#include <algorithm>

#include "kube/wire/cluster_api_json.h"

namespace propscaler {

Result<bool> ServesPodResize(const kube::KubeApi& api) {
  Result<std::string> answer = api.Call({.path = "/api/v1"});
  if (!answer.ok()) {
    return answer.status().WithContext(
        "discovering whether the server serves pods/resize, for "
        "--resize=in-place (GET /api/v1)");
  }
  Result<std::vector<std::string>> names =
      kube::DecodeResourceNames(*answer, "v1");
  if (!names.ok()) return names.status();
  return std::find(names->begin(), names->end(), "pods/resize") != names->end();
}

}  // namespace propscaler
