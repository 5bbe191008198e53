// The node groups file ({"nodeGroups":[...],"priorities":{...},
// "pools":[...]}), as the kwok provider's ConfigMap and `propscaler simulate`
// take it, and one pool's settings as Cluster API's annotations carry them.
// Takes text, returns the domain's structs; errors name the field path and
// the bad value. No I/O.
#ifndef PROPSCALER_NODESCALE_DOMAIN_NODE_GROUPS_JSON_H_
#define PROPSCALER_NODESCALE_DOMAIN_NODE_GROUPS_JSON_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

struct NodeGroupsFile {
  std::vector<NodeGroup> groups;
  std::map<int, std::vector<std::string>> priorities;  // may be empty
  std::vector<NodePool> pools;  // may be empty: every group in the default
};

Result<NodeGroupsFile> DecodeNodeGroupsJson(std::string_view text);

// One pool's settings as a pool of the groups file has them, without its
// name ({"disruption":{...},"expireAfter":"720h","migrateToPreferred":true}),
// for pool `name`.
Result<NodePool> DecodePoolSettingsJson(const std::string& name,
                                        std::string_view text);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_NODE_GROUPS_JSON_H_
