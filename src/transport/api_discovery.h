// What the API server serves, asked as kubectl asks: discovery (GET
// /api/v1, /apis/GROUP, /apis/GROUP/VERSION) and, where a probe must see
// through RBAC, a one-item list. The one place propscaler writes these
// paths: app/'s probes (--hpa-floor's autoscaling version, --resize's
// pods/resize, Cluster API's version and MachinePools, CSIStorageCapacity's
// version) and Cluster API's infrastructure templates ask here. Each error
// names the request ("GET /apis/autoscaling: ...").
#ifndef PROPSCALER_TRANSPORT_API_DISCOVERY_H_
#define PROPSCALER_TRANSPORT_API_DISCOVERY_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "transport/api.h"

namespace propscaler::kube {

class ApiDiscovery {
 public:
  explicit ApiDiscovery(const KubeApi* api) : api_(api) {}

  // The versions API group `group` serves, the preferred first.
  Result<std::vector<std::string>> GroupVersions(
      const std::string& group) const;
  Result<std::string> PreferredVersion(const std::string& group) const;
  // The resources and subresources ("pods/resize") `group_version` serves
  // ("v1" is the core group's).
  Result<std::vector<std::string>> Resources(
      const std::string& group_version) const;
  // The resource (not a subresource) of kind `kind`; "" when none.
  Result<std::string> ResourceOfKind(const std::string& group_version,
                                     const std::string& kind) const;
  // Whether a list of `resource` in `group_version` is served: any answer
  // but 404 (a 403 too: served, not granted, which the watch then says).
  bool ServesList(const std::string& group_version,
                  const std::string& resource) const;

  // Whether GET `api_root` (a group version's root, as kCapacityBufferApi)
  // answers anything but 404: the API is installed.
  bool Serves(const std::string& api_root) const;

  // "/api/v1" for the core group's "v1", else "/apis/GROUP/VERSION".
  static std::string Path(const std::string& group_version);

 private:
  Result<std::string> Get(const std::string& path) const;

  const KubeApi* api_;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_API_DISCOVERY_H_
