// Which of two resourceVersions of one object is newer. The API calls them
// opaque; kube-apiserver's are etcd revisions written in decimal, which do
// order, and that is the only case this orders: anything else is kUnknown,
// and the caller must not guess (a watch then wins over a write's answer).
#ifndef PROPSCALER_KUBE_MODEL_RESOURCE_VERSION_H_
#define PROPSCALER_KUBE_MODEL_RESOURCE_VERSION_H_

#include <string_view>

namespace propscaler::kube {

enum class VersionOrder { kOlder, kSame, kNewer, kUnknown };

// How `version` stands to `reference`: kNewer when `version` is newer.
VersionOrder CompareResourceVersions(std::string_view version,
                                     std::string_view reference);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_RESOURCE_VERSION_H_
