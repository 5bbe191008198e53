#include "kube/controllers/scale_writer.h"

#include <glog/logging.h>

namespace propscaler::kube {

bool ScaleWriter::PatchOnly(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  return patch_only_.count(key) > 0;
}

Result<Scale> ScaleWriter::Write(const std::string& ns,
                                 const ScaleTarget& target, const Scale& read,
                                 int64_t replicas) {
  const std::string key = ns + "/" + target.ToString();
  if (PatchOnly(key)) return api_->PatchScale(ns, target, replicas);
  Result<Scale> updated = api_->UpdateScale(ns, target, read, replicas);
  if (updated.ok() ||
      updated.status().code() != StatusCode::kPermissionDenied) {
    return updated;
  }
  Result<Scale> patched = api_->PatchScale(ns, target, replicas);
  if (!patched.ok()) {
    if (patched.status().code() != StatusCode::kPermissionDenied) {
      return patched;
    }
    return Status(StatusCode::kPermissionDenied,
                  "neither update nor patch of " + target.ToString() +
                      "/scale is allowed (grant update on its scale "
                      "subresource): " +
                      updated.status().message());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (patch_only_.insert(key).second) {
    LOG(WARNING) << "update of " << target.ToString() << "/scale in namespace "
                 << ns
                 << " is forbidden; writing replicas with patch from now on "
                    "(grant update on the scale subresource to write under "
                    "the resourceVersion read, as cluster-proportional-"
                    "autoscaler does)";
  }
  return patched;
}

}  // namespace propscaler::kube
