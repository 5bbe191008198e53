// A node list in Kubernetes' protobuf encoding, decoded into the LiveNodes
// node-scale mode keeps (the JSON decoder is pod_decode.cc's DecodeNode):
// read as it arrives (proto_list_scan.h), each Node decoded on its own,
// with the same checks, error paths and not-ready rule.
#ifndef PROPSCALER_KUBE_WIRE_LIVE_NODE_PROTO_DECODE_H_
#define PROPSCALER_KUBE_WIRE_LIVE_NODE_PROTO_DECODE_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/live_objects.h"
#include "kube/wire/json_chunk_stream.h"

namespace propscaler::kube {

// One Node message (an item of the list, without the envelope); errors
// start with `path` ("items[3]").
Result<LiveNode> DecodeLiveNodeProto(std::string_view node,
                                     const std::string& path);

// With `on_items` set the nodes go there in batches of kListBatch as they
// are decoded, and the page returned holds none. A node that does not
// decode is reported in item_errors; a list that does not is an error.
Result<ListPage<LiveNode>> DecodeLiveNodeListProto(
    JsonChunkStream* body, const ItemBatches<LiveNode>& on_items);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_LIVE_NODE_PROTO_DECODE_H_
