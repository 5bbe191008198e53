// Decoding of snapshot files: what `kubectl get nodes -o json`,
// `kubectl get pods -A -o json` and `kubectl get pdb -A -o json` print (the
// node groups file: nodescale/domain/node_groups_json.h). Takes text, returns
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
#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

Result<std::vector<NodeState>> DecodeNodeListJson(std::string_view text);
Result<std::vector<PodState>> DecodePodListJson(std::string_view text);
// `kubectl get pdb -A -o json`: policy/v1 unless the list says v1beta1.
Result<std::vector<PdbState>> DecodePdbListJson(std::string_view text);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_SNAPSHOT_JSON_H_
