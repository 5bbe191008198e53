// Decoding of snapshot files: what `kubectl get nodes -o json` and
// `kubectl get pods -A -o json` print, and the node groups file
// ({"nodeGroups":[...],"priorities":{...},"pools":[...]}). Takes text, returns
// the compact structs; errors name the field path and the bad value
// ("items[2].status.allocatable.cpu: quantity \"4x\": unknown suffix").
// The caller adds the file name. No I/O.
#ifndef PROPSCALER_KUBE_WIRE_SNAPSHOT_JSON_H_
#define PROPSCALER_KUBE_WIRE_SNAPSHOT_JSON_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kube/model/node_group.h"
#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

Result<std::vector<NodeState>> DecodeNodeListJson(std::string_view text);
Result<std::vector<PodState>> DecodePodListJson(std::string_view text);
// `kubectl get pdb -A -o json`: policy/v1 unless the list says v1beta1.
Result<std::vector<PdbState>> DecodePdbListJson(std::string_view text);

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

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_SNAPSHOT_JSON_H_
