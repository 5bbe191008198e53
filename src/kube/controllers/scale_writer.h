// Sets a target's replicas with whatever its RBAC allows. First a PUT of the
// Scale under the resourceVersion that was read, as cluster-proportional-
// autoscaler writes it (RBAC verb `update` on */scale), so a concurrent
// writer makes the server answer 409 instead of being overwritten; when
// `update` is forbidden, a merge PATCH (verb `patch`), remembered from then
// on for that target and logged once.
//
// Thread-safe.
#ifndef PROPSCALER_KUBE_CONTROLLERS_SCALE_WRITER_H_
#define PROPSCALER_KUBE_CONTROLLERS_SCALE_WRITER_H_

#include <mutex>
#include <set>
#include <string>

#include "common/status.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "kube/model/scale_target.h"

namespace propscaler::kube {

class ScaleWriter {
 public:
  explicit ScaleWriter(const ScaleClient* api) : api_(api) {}

  // Sets spec.replicas of `target` in `ns`, last read as `read`. kConflict
  // when it changed since (read it again and retry); kPermissionDenied when
  // neither update nor patch is allowed.
  Result<Scale> Write(const std::string& ns, const ScaleTarget& target,
                      const Scale& read, int64_t replicas);

 private:
  bool PatchOnly(const std::string& key);

  const ScaleClient* api_;
  std::mutex mutex_;
  std::set<std::string> patch_only_;  // namespace/kind/name
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CONTROLLERS_SCALE_WRITER_H_
