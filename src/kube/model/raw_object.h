// An object of a kind kube/ does not model (a Karpenter NodePool): its
// identity and its JSON as served. The layer that owns the kind's meaning
// decodes the text, so one bad object is that layer's error, not the
// watch's.
#ifndef PROPSCALER_KUBE_MODEL_RAW_OBJECT_H_
#define PROPSCALER_KUBE_MODEL_RAW_OBJECT_H_

#include <string>

namespace propscaler::kube {

// Karpenter's NodePools' group and version.
inline constexpr char kNodePoolApi[] = "/apis/karpenter.sh/v1";

struct RawObject {
  std::string namespace_;  // "" for a cluster-scoped object
  std::string name;
  std::string resource_version;
  std::string json;  // the whole object

  std::string Key() const {
    return namespace_.empty() ? name : namespace_ + "/" + name;
  }
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_RAW_OBJECT_H_
