// Karpenter NodePools (karpenter.sh/v1) as `kubectl get nodepools -o json`
// prints them (a List), one NodePool object, or YAML documents of either:
// the scheduling half (template labels, requirements, taints, startup
// taints, limits, weight) and the disruption half (spec.disruption,
// expireAfter). Takes text, returns the domain's structs; errors name the
// NodePool, the field path and the bad value. No I/O.
#ifndef PROPSCALER_NODESCALE_DOMAIN_NODE_POOLS_JSON_H_
#define PROPSCALER_NODESCALE_DOMAIN_NODE_POOLS_JSON_H_

#include <rapidjson/document.h>

#include <string_view>
#include <vector>

#include "common/status.h"
#include "nodescale/domain/node_pool_spec.h"

namespace propscaler::nodescale {

Result<std::vector<NodePoolSpec>> DecodeNodePools(std::string_view text);

// One NodePool object (a list item or a watch event's object).
Result<NodePoolSpec> DecodeNodePoolObject(const rapidjson::Value& item,
                                          const std::string& path);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_NODE_POOLS_JSON_H_
