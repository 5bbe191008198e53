// ListWatch over HTTP: pages and watch lines from KubeApi, decoded by a
// codec. A codec that decodes streams gets each page as it arrives (never
// held whole); otherwise, while a page is decoded the next one is already
// being fetched.
#ifndef PROPSCALER_TRANSPORT_HTTP_LIST_WATCH_H_
#define PROPSCALER_TRANSPORT_HTTP_LIST_WATCH_H_

#include <functional>
#include <future>
#include <optional>
#include <string>
#include <string_view>

#include "kube/model/list_watch.h"
#include "kube/wire/list_head.h"
#include "transport/api.h"

namespace propscaler::kube {

template <typename T>
class HttpListWatch : public ListWatch<T> {
 public:
  HttpListWatch(const KubeApi* api, Collection collection,
                ListWatchCodec<T> codec)
      : api_(api), collection_(std::move(collection)), codec_(codec) {}
  ~HttpListWatch() override {
    if (prefetch_.valid()) prefetch_.wait();
  }

  Result<ListPage<T>> List(const ListCall<T>& call) override {
    if (codec_.decode_list_stream) return StreamList(call);
    const int limit = call.limit;
    const std::string& continue_token = call.continue_token;
    Result<std::string> body =
        prefetch_.valid() && prefetch_token_ == continue_token
            ? prefetch_.get()
            : api_->ListPage(collection_, {limit, continue_token});
    if (prefetch_.valid()) prefetch_.wait();  // one not taken: drop it
    prefetch_ = {};
    if (!body.ok()) return body.status();
    const std::optional<std::string> next = PeekContinueToken(*body);
    if (next.has_value() && !next->empty()) {
      prefetch_token_ = *next;
      prefetch_ = std::async(std::launch::async, [this, limit, token = *next] {
        return api_->ListPage(collection_, {limit, token});
      });
    }
    return codec_.decode_list(*body);
  }

  Status Watch(const std::string& resource_version, int timeout_seconds,
               const std::function<bool(Result<WatchEvent<T>>)>& on_event,
               const StopSignal* stop,
               const std::function<void()>& on_open) override {
    return api_->Watch(
        collection_, resource_version, timeout_seconds,
        [&](std::string_view line) {
          return on_event(codec_.decode_event(line));
        },
        stop->flag(), on_open);
  }

  Status WatchList(int timeout_seconds,
                   const std::function<bool(Result<WatchEvent<T>>)>& on_event,
                   const StopSignal* stop,
                   const std::function<void()>& on_open) override {
    return api_->WatchList(
        collection_, timeout_seconds,
        [&](std::string_view line) {
          return on_event(codec_.decode_event(line));
        },
        stop->flag(), on_open);
  }

  std::chrono::milliseconds RetryAfterLeft() const override {
    return api_->RetryAfterLeft(collection_.path);
  }

 private:
  Result<ListPage<T>> StreamList(const ListCall<T>& call) {
    ListPage<T> page;
    Status status = api_->StreamListPage(
        collection_,
        {.limit = call.limit,
         .continue_token = call.continue_token,
         .any_version = call.any_version,
         .protobuf = codec_.list_stream_protobuf},
        [&](JsonChunkStream* body) {
          Result<ListPage<T>> decoded =
              codec_.decode_list_stream(body, call.on_items);
          if (!decoded.ok()) return decoded.status();
          page = std::move(decoded).value();
          return Status::Ok();
        });
    if (!status.ok()) return status;
    return page;
  }

  const KubeApi* api_;
  const Collection collection_;
  const ListWatchCodec<T> codec_;
  std::string prefetch_token_;
  std::future<Result<std::string>> prefetch_;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_HTTP_LIST_WATCH_H_
