// A list in Kubernetes' protobuf envelope ("k8s\0", then a runtime.Unknown
// whose raw bytes are the List message) read as it arrives: its metadata,
// and each item's bytes, read whole one at a time and handed to a visitor,
// so a list of the whole collection is never held. The protobuf twin of
// ScanJsonListStream (json_list_watch.h), shared by the node and pod lists.
#ifndef PROPSCALER_KUBE_PROTO_LIST_SCAN_H_
#define PROPSCALER_KUBE_PROTO_LIST_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/json_chunk_stream.h"

namespace propscaler::kube {

struct ProtoListShape {
  const char* what;       // "pod list": errors start "pod list (protobuf): "
  std::string_view kind;  // the envelope's kind must be this ("PodList")
  // An item larger than this is refused rather than buffered (the API
  // server caps an object at about 1.5 MB).
  uint64_t max_item_bytes = 16 << 20;
};

struct ProtoListScan {
  std::string resource_version;
  std::string continue_token;
};

// Item `i`'s message; an error it returns ends the scan with that error.
using ProtoItemVisitor = std::function<Status(std::string_view item, size_t i)>;

Status ScanProtoListStream(JsonChunkStream* body, const ProtoListShape& shape,
                           ProtoListScan* out, const ProtoItemVisitor& visit);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_PROTO_LIST_SCAN_H_
