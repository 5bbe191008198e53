// A collection's list-and-watch, typed: what a Reflector consumes. The HTTP
// implementation (transport/http_list_watch.h) decodes the server's JSON; tests
// supply an in-memory one (tests/memcluster/).
#ifndef PROPSCALER_KUBE_MODEL_LIST_WATCH_H_
#define PROPSCALER_KUBE_MODEL_LIST_WATCH_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/model/objects.h"

namespace propscaler::kube {

class JsonChunkStream;

// Items handed over in batches (of about kListBatch) as a list is decoded.
inline constexpr size_t kListBatch = 500;
template <typename T>
using ItemBatches = std::function<void(std::vector<T>)>;

// Hands the page's items decoded so far to `on_items`, when it is set.
template <typename T>
void HandOverItems(const ItemBatches<T>& on_items, ListPage<T>* page) {
  if (!on_items || page->items.empty()) return;
  on_items(std::move(page->items));
  page->items = {};
}

// How a collection's JSON becomes T (list bodies and watch lines); shared
// by the implementations. Functions, not pointers, so a decoder can carry
// options (the node decoder's --exclude-node-taints).
template <typename T>
struct ListWatchCodec {
  std::function<Result<ListPage<T>>(std::string_view body)> decode_list;
  std::function<Result<WatchEvent<T>>(std::string_view line)> decode_event;
  // Optional: a list page decoded as it arrives, never held whole (used
  // over HTTP when set). With `on_items` set, the items go there in batches
  // as they are decoded and the page returned holds none.
  std::function<Result<ListPage<T>>(JsonChunkStream* body,
                                    const ItemBatches<T>& on_items)>
      decode_list_stream;
  // decode_list_stream also reads Kubernetes' protobuf: lists ask for it.
  bool list_stream_protobuf = false;
};

// One list request.
template <typename T>
struct ListCall {
  int limit = 0;               // > 0
  std::string continue_token;  // empty for the first page
  // The first page may be of any resourceVersion ("0"): kube-apiserver then
  // answers from its watch cache, whole (the limit ignored), instead of
  // reading etcd page by page, as it does for client-go's first list. A
  // source that would have to hold such a page whole (no streaming
  // decoder) asks for the newest version in pages instead.
  bool any_version = false;
  // Optional: the items in batches of about `limit` as they are decoded
  // (the page returned then holds none), so even a whole-collection page is
  // never held decoded. Sources without a streaming decoder return them in
  // the page instead.
  ItemBatches<T> on_items;
};

template <typename T>
class ListWatch {
 public:
  virtual ~ListWatch() = default;

  virtual Result<ListPage<T>> List(const ListCall<T>& call) = 0;

  // Passes each event after `resource_version` to `on_event` (an event that
  // could not be decoded as an error) until the stream ends (after about
  // `timeout_seconds`), `on_event` returns false, or `*stop`. `on_open` is
  // called once the server has accepted the watch, before any event. An
  // error status of the request is returned.
  virtual Status Watch(
      const std::string& resource_version, int timeout_seconds,
      const std::function<bool(Result<WatchEvent<T>>)>& on_event,
      const StopSignal* stop, const std::function<void()>& on_open) = 0;

  // A WatchList (Kubernetes 1.27+, on by default from 1.32): the watch
  // starts with an ADDED event per object, then a BOOKMARK with
  // initial_events_end, then goes on as Watch does. kInvalidArgument when
  // the server refuses it (older servers), and from sources without it.
  virtual Status WatchList(
      int /*timeout_seconds*/,
      const std::function<bool(Result<WatchEvent<T>>)>& /*on_event*/,
      const StopSignal* /*stop*/, const std::function<void()>& /*on_open*/) {
    return Status(StatusCode::kInvalidArgument, "this source has no WatchList");
  }

  // How long the server asked us to stay away; zero when it did not.
  virtual std::chrono::milliseconds RetryAfterLeft() const = 0;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_LIST_WATCH_H_
