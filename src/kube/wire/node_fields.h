// What the node decoders (JSON in node_decode.cc, protobuf in
// node_proto_decode.cc) collect from one Node before it becomes a NodeInfo.
#ifndef PROPSCALER_KUBE_WIRE_NODE_FIELDS_H_
#define PROPSCALER_KUBE_WIRE_NODE_FIELDS_H_

#include <string>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/node_info.h"
#include "kube/model/objects.h"

namespace propscaler::kube {

// What one Node (or event object) said, before validation.
struct NodeFields {
  std::string name;
  std::string resource_version;
  std::string cpu;
  bool unschedulable = false;
  bool ready = false;
  bool seen_ready = false;  // the first Ready condition decides
  bool condition_is_ready = false;
  bool condition_true = false;
  bool excluded_by_taint = false;
  std::string taint_key;  // of the taint being read
  std::string taint_effect;
  int error_code = 0;
  std::string error_message;
  bool initial_events_end = false;
};

// The NodeInfo `fields` describe (moving the name out of them), or what is
// wrong with them, naming the node and the field.
Result<NodeInfo> ToNodeInfo(NodeFields& fields, CountedCpu cpu);

// How many decoded nodes a streamed list hands over at a time.
inline constexpr size_t kNodeBatch = kListBatch;

// Adds that NodeInfo to `page`'s items, or what is wrong to its
// item_errors (a list skips a bad item, saying why); every kNodeBatch
// items go to `on_items`, where set.
void AddNodeItem(NodeFields& fields, CountedCpu cpu,
                 const ItemBatches<NodeInfo>& on_items,
                 ListPage<NodeInfo>* page);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_NODE_FIELDS_H_
