// An instance-type catalogue in the format of Karpenter's kwok provider
// (--instance-types-file-path): a JSON array of {"name", "architecture",
// "operatingSystems", "resources", "offerings"}, an offering either
// {"Price", "Available", "Requirements": [{key, operator: In, values: [one]}]}
// or {"CapacityType", "Zone", "Price", "Available"}. As the kwok provider
// loads it: every offering available, pods 110 unless given, 100m cpu and
// 10Mi memory kube-reserved, and the labels it derives (instance type,
// arch, os, karpenter.kwok.sh/instance-{size,family,cpu,memory}). Takes
// text; errors name the entry, the field and the bad value. No I/O.
#ifndef PROPSCALER_NODESCALE_DOMAIN_INSTANCE_TYPES_JSON_H_
#define PROPSCALER_NODESCALE_DOMAIN_INSTANCE_TYPES_JSON_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "nodescale/domain/instance_type.h"

namespace propscaler::nodescale {

inline constexpr std::string_view kInstanceTypeLabel =
    "node.kubernetes.io/instance-type";
inline constexpr std::string_view kArchLabel = "kubernetes.io/arch";
inline constexpr std::string_view kOsLabel = "kubernetes.io/os";
inline constexpr std::string_view kCapacityTypeLabel =
    "karpenter.sh/capacity-type";

Result<std::vector<InstanceType>> DecodeInstanceTypes(std::string_view text);

// An instance type as the kwok provider derives it from a name, an
// architecture, operating systems, resources (cpu and memory as the file
// writes them) and offerings.
InstanceType KwokInstanceType(const std::string& name,
                              const std::string& architecture,
                              const std::vector<std::string>& systems,
                              const Resources& capacity,
                              const std::string& cpu_text,
                              const std::string& memory_text,
                              std::vector<Offering> offerings);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_INSTANCE_TYPES_JSON_H_
