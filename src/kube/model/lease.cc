#include "kube/model/lease.h"

namespace propscaler::kube {

std::string DescribeLease(const Lease& lease) {
  return "lease " + lease.namespace_ + "/" + lease.name;
}

}  // namespace propscaler::kube
