// The catalogue Karpenter's kwok provider uses when given no file: its
// generated 144 instance types (families c, s and m at 2, 4 and 8 GiB a
// cpu; 1 to 256 cpu; linux and windows; amd64 and arm64), each with eight
// offerings (spot and on-demand in test-zone-a to -d), priced 0.025 a cpu
// plus 0.001 a GB of memory, spot at 70%. Built by the generator's rules
// (kubernetes-sigs/karpenter kwok/tools/gen_instance_types.go), so it is
// the same list the provider's instance_types.json holds. Pure.
#ifndef PROPSCALER_NODESCALE_DOMAIN_KWOK_CATALOGUE_H_
#define PROPSCALER_NODESCALE_DOMAIN_KWOK_CATALOGUE_H_

#include <vector>

#include "nodescale/domain/instance_type.h"

namespace propscaler::nodescale {

std::vector<InstanceType> KwokDefaultInstanceTypes();

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_KWOK_CATALOGUE_H_
