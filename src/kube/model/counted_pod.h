// A pod as replica mode counts it for podsPerReplica: its namespace and
// name, and whether its phase counts (Running or Pending; a Succeeded or
// Failed pod holds no work).
#ifndef PROPSCALER_KUBE_MODEL_COUNTED_POD_H_
#define PROPSCALER_KUBE_MODEL_COUNTED_POD_H_

#include <string>

namespace propscaler::kube {

struct CountedPod {
  std::string key;  // namespace/name
  bool counted = false;
  bool operator==(const CountedPod&) const = default;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_COUNTED_POD_H_
