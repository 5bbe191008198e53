// A list in Kubernetes' protobuf envelope ("k8s\0", then a runtime.Unknown
// whose raw bytes are the List message) read as it arrives: its metadata,
// and each item's bytes, read whole one at a time and handed to a visitor,
// so a list of the whole collection is never held. The protobuf twin of
// ScanJsonListStream (json_list_watch.h), shared by the node and pod lists.
#ifndef PROPSCALER_KUBE_WIRE_PROTO_LIST_SCAN_H_
#define PROPSCALER_KUBE_WIRE_PROTO_LIST_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/wire/json_chunk_stream.h"

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

// The list as a page: `add(item, i, &page)` puts each item's decoding in
// the page (and hands batches over); what is left is handed over at the
// end, and the page gets the list's resourceVersion and continue token.
template <typename T, typename AddItem>
Result<ListPage<T>> ScanProtoListPage(JsonChunkStream* body,
                                      const ProtoListShape& shape,
                                      const ItemBatches<T>& on_items,
                                      AddItem&& add) {
  ListPage<T> page;
  ProtoListScan scan;
  Status status = ScanProtoListStream(
      body, shape, &scan,
      [&](std::string_view item, size_t i) { return add(item, i, &page); });
  if (!status.ok()) return status;
  HandOverItems(on_items, &page);
  page.resource_version = std::move(scan.resource_version);
  page.continue_token = std::move(scan.continue_token);
  return page;
}

// A list of objects each decoded by `decode(item, "items[i]")`: one that
// does not decode is an item error, the list goes on; batches of
// kListBatch go to `on_items` as they fill.
template <typename T>
Result<ListPage<T>> DecodeProtoObjectList(
    JsonChunkStream* body, const ProtoListShape& shape,
    Result<T> (*decode)(std::string_view, const std::string&),
    const ItemBatches<T>& on_items) {
  return ScanProtoListPage<T>(
      body, shape, on_items,
      [&](std::string_view item, size_t i, ListPage<T>* page) {
        Result<T> object = decode(item, "items[" + std::to_string(i) + "]");
        if (object.ok()) {
          page->items.push_back(std::move(object).value());
        } else {
          page->item_errors.push_back(object.status().message());
        }
        if (page->items.size() >= kListBatch) HandOverItems(on_items, page);
        return Status::Ok();
      });
}

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_PROTO_LIST_SCAN_H_
