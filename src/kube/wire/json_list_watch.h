// The one DOM decoding of list pages and watch events, shared by kube/'s
// RapidJSON decoders (ConfigMaps, node-scale's pods and nodes; replica
// mode's counted nodes keep their SAX fast path in node_decode): a page's
// resourceVersion, continue token and items, where an item that does not
// decode is reported in item_errors, not fatal; a watch line's type,
// resourceVersion, ERROR status and object.
#ifndef PROPSCALER_KUBE_WIRE_JSON_LIST_WATCH_H_
#define PROPSCALER_KUBE_WIRE_JSON_LIST_WATCH_H_

#include <rapidjson/document.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/objects.h"
#include "kube/wire/json_chunk_stream.h"

namespace propscaler::kube {

// Decodes one object; errors start with `path` ("items[2]", "object").
template <typename T>
using JsonObjectDecoder = Result<T> (*)(const rapidjson::Value& object,
                                        const std::string& path);

// `text` as a JSON object; errors name `what` and the offset.
Result<rapidjson::Document> ParseJsonObject(std::string_view text,
                                            const char* what);

// `object[name]` as a string; empty when absent or not a string.
std::string JsonString(const rapidjson::Value& object, const char* name);

// `value` written out as compact JSON.
std::string JsonText(const rapidjson::Value& value);

// A watch line's envelope: the object is null for an ERROR event.
struct WatchEnvelope {
  WatchEventType type = WatchEventType::kAdded;
  std::string resource_version;
  int error_code = 0;
  std::string error_message;
  bool initial_events_end = false;
  const rapidjson::Value* object = nullptr;
};
Result<WatchEnvelope> ParseWatchEnvelope(const rapidjson::Document& doc);

// A list's metadata, and each element of its "items" as text: the list is
// read once without building its document, so only one item's document is
// in memory at a time (a page of 500 realistic pods is several MB of JSON
// and more as a document). An element that is not an object is visited
// with an empty text. Errors name `what` and the offset.
struct JsonListScan {
  std::string resource_version;
  std::string continue_token;
};
using JsonItemVisitor = std::function<void(std::string_view item, size_t i)>;
Status ScanJsonList(std::string_view body, const char* what, JsonListScan* out,
                    const JsonItemVisitor& visit);

// The same scan of a body as it arrives (over HTTP, a list of the whole
// collection from the watch cache): each item's text is copied out while
// it is read, and only that item's is held.
Status ScanJsonListStream(JsonChunkStream* body, const char* what,
                          JsonListScan* out, const JsonItemVisitor& visit);

// Item `i` of a list, decoded into `page`'s items or, when it does not
// decode, its item_errors.
template <typename T>
void AddJsonItem(std::string_view text, size_t i, JsonObjectDecoder<T> decode,
                 const char* what, ListPage<T>* page) {
  const std::string path = "items[" + std::to_string(i) + "]";
  Result<rapidjson::Document> doc =
      text.empty() ? Result<rapidjson::Document>(
                         Status::Internal(path + ": not an object"))
                   : ParseJsonObject(text, what);
  Result<T> item = doc.ok() ? decode(*doc, path) : doc.status();
  if (item.ok()) {
    page->items.push_back(std::move(item).value());
  } else {
    page->item_errors.push_back(item.status().message());
  }
}

template <typename T>
Result<ListPage<T>> DecodeJsonList(std::string_view body,
                                   JsonObjectDecoder<T> decode,
                                   const char* what) {
  ListPage<T> page;
  JsonListScan scan;
  Status scanned =
      ScanJsonList(body, what, &scan, [&](std::string_view text, size_t i) {
        AddJsonItem(text, i, decode, what, &page);
      });
  if (!scanned.ok()) return scanned;
  page.resource_version = std::move(scan.resource_version);
  page.continue_token = std::move(scan.continue_token);
  return page;
}

// A list decoded as it arrives; with `on_items` set its items go there in
// batches of kListBatch and the page returned holds none.
template <typename T>
Result<ListPage<T>> DecodeJsonListStream(JsonChunkStream* body,
                                         JsonObjectDecoder<T> decode,
                                         const char* what,
                                         const ItemBatches<T>& on_items) {
  ListPage<T> page;
  JsonListScan scan;
  Status scanned = ScanJsonListStream(
      body, what, &scan, [&](std::string_view text, size_t i) {
        AddJsonItem(text, i, decode, what, &page);
        if (page.items.size() >= kListBatch) HandOverItems(on_items, &page);
      });
  if (!scanned.ok()) return scanned;
  HandOverItems(on_items, &page);
  page.resource_version = std::move(scan.resource_version);
  page.continue_token = std::move(scan.continue_token);
  return page;
}

template <typename T>
Result<WatchEvent<T>> DecodeJsonWatchEvent(std::string_view line,
                                           JsonObjectDecoder<T> decode,
                                           const char* what) {
  Result<rapidjson::Document> doc = ParseJsonObject(line, what);
  if (!doc.ok()) return doc.status();
  Result<WatchEnvelope> envelope = ParseWatchEnvelope(*doc);
  if (!envelope.ok()) return envelope.status();
  WatchEvent<T> event;
  event.type = envelope->type;
  event.resource_version = envelope->resource_version;
  event.error_code = envelope->error_code;
  event.error_message = envelope->error_message;
  event.initial_events_end = envelope->initial_events_end;
  if (event.type == WatchEventType::kError ||
      event.type == WatchEventType::kBookmark) {
    return event;
  }
  Result<T> decoded = decode(*envelope->object, "object");
  if (!decoded.ok()) return decoded.status();
  event.object = std::move(decoded).value();
  return event;
}

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_JSON_LIST_WATCH_H_
