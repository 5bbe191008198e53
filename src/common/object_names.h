// Kubernetes' rules for names, checked before anything is sent: a namespace
// is a DNS-1123 label (at most 63 lowercase letters, digits and '-', starting
// and ending with a letter or digit); most object names (ConfigMaps,
// Deployments, Leases) are DNS-1123 subdomains (labels joined by '.', at
// most 253 characters). Errors name the flag, the value and the rule.
#ifndef PROPSCALER_COMMON_OBJECT_NAMES_H_
#define PROPSCALER_COMMON_OBJECT_NAMES_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace propscaler {

Status CheckDns1123Label(std::string_view flag, std::string_view value);
Status CheckDns1123Subdomain(std::string_view flag, std::string_view value);
bool IsDns1123Subdomain(std::string_view value);

// `value` in ASCII lower case, as cluster-proportional-autoscaler and CPVA
// take their --target (kind and name alike).
std::string AsciiLower(std::string_view value);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_OBJECT_NAMES_H_
