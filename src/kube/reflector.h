// Keeps a local copy of a collection current: lists it page by page, then
// watches from the list's resourceVersion. A 410 (Expired) lists again; a
// dropped, failed or silent stream (see KubeApiOptions::idle_timeout)
// reconnects after a capped exponential backoff with jitter, never sooner
// than the server's Retry-After; a stream the server ends normally is resumed
// at once from the newest resourceVersion seen.
//
// A list that fails on any page, or arrives truncated, is dropped whole: the
// sink only ever sees complete lists. LastError() says whether the copy may
// be stale: the error of the last failed attempt, until one succeeds.
//
// A reflector told to StopWhenForbidden() returns from Run() at the first
// 403 instead of retrying, so its owner can fall back to what RBAC allows.
//
// The objects are decoded into compact form and handed to a Sink; the
// reflector keeps nothing but the resourceVersion.
#ifndef PROPSCALER_KUBE_REFLECTOR_H_
#define PROPSCALER_KUBE_REFLECTOR_H_

#include <glog/logging.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "common/backoff.h"
#include "common/stop_signal.h"
#include "kube/api.h"
#include "kube/list_head.h"
#include "kube/objects.h"
#include "server/metrics.h"

namespace propscaler::kube {

// Functions, not pointers, so a decoder can carry options (the node
// decoder's --exclude-node-taints).
template <typename T>
struct ReflectorCodec {
  std::function<Result<ListPage<T>>(std::string_view body)> decode_list;
  std::function<Result<WatchEvent<T>>(std::string_view line)> decode_event;
};

template <typename T>
struct ReflectorSink {
  std::function<void(std::vector<T>)> replace;  // after every full list
  std::function<void(const T&)> upsert;
  std::function<void(const T&)> remove;
};

template <typename T>
class Reflector {
 public:
  static constexpr int kPageSize = 500;
  // Retries back off from kInitialBackoff to kMaxBackoff: a hot loop never,
  // and data a poll period or so old at most after the server recovers.
  static constexpr std::chrono::milliseconds kInitialBackoff{200};
  static constexpr std::chrono::seconds kMaxBackoff{10};

  Reflector(const KubeApi* api, Collection collection, ReflectorCodec<T> codec,
            ReflectorSink<T> sink, std::string what)
      : api_(api),
        collection_(std::move(collection)),
        codec_(codec),
        sink_(std::move(sink)),
        what_(std::move(what)) {
    GlobalMetrics().DeclareCounter(
        "propscaler_watch_restarts_total",
        "Lists and watches started again after a failure (reason \"error\") "
        "or an expired resourceVersion (\"expired\").");
  }

  // Lists the whole collection once and hands it to the sink. The next page
  // is requested while the current one is decoded.
  Status ListOnce() {
    std::vector<T> items;
    Result<std::string> body = api_->ListPage(collection_, kPageSize, "");
    while (true) {
      if (!body.ok()) return body.status().WithContext("listing " + what_);
      const std::optional<std::string> peeked = PeekContinueToken(*body);
      std::future<Result<std::string>> next;
      if (peeked.has_value() && !peeked->empty()) {
        next = std::async(std::launch::async, [this, token = *peeked] {
          return api_->ListPage(collection_, kPageSize, token);
        });
      }
      Result<ListPage<T>> page = codec_.decode_list(*body);
      if (!page.ok()) return page.status().WithContext("listing " + what_);
      for (const std::string& error : page->item_errors) {
        LOG(WARNING) << "listing " << what_ << ": skipped an item: " << error;
      }
      std::move(page->items.begin(), page->items.end(),
                std::back_inserter(items));
      resource_version_ = page->resource_version;
      if (page->continue_token.empty()) break;
      body = next.valid() && page->continue_token == *peeked
                 ? next.get()
                 : api_->ListPage(collection_, kPageSize, page->continue_token);
    }
    sink_.replace(std::move(items));
    return Status::Ok();
  }

  // Makes Run() return at the first 403 (RBAC forbids the list or watch),
  // with forbidden() true and LastError() saying what was refused.
  void StopWhenForbidden() { stop_when_forbidden_ = true; }
  bool forbidden() const { return forbidden_.load(); }

  // Lists and watches until `stop`.
  void Run(StopSignal* stop) {
    forbidden_ = false;
    Backoff backoff(kInitialBackoff, kMaxBackoff);
    bool listed = false;
    while (!stop->stopped()) {
      Status status = listed ? WatchOnce(stop) : ListOnce();
      if (stop->stopped()) return;
      if (status.code() == StatusCode::kGone) {
        LOG(INFO) << what_ << ": resourceVersion expired, listing again";
        CountRestart("expired");
        listed = false;
        continue;
      }
      if (status.code() == StatusCode::kPermissionDenied &&
          stop_when_forbidden_) {
        SetLastError(status);
        forbidden_ = true;
        return;
      }
      if (status.ok()) {
        listed = true;
        backoff.Reset();
        SetLastError(Status::Ok());
        continue;
      }
      SetLastError(status);
      const auto wait =
          std::max(backoff.Next(), api_->RetryAfterLeft(collection_.path));
      LOG(WARNING) << what_ << ": " << status.message() << "; retrying in "
                   << wait.count() << "ms";
      ++restarts_;
      CountRestart("error");
      if (stop->WaitFor(wait)) return;
    }
  }

  int restarts() const { return restarts_; }

  // OK, or the last failure while the local copy may be stale.
  Status LastError() const {
    std::lock_guard<std::mutex> lock(error_mutex_);
    return last_error_;
  }

 private:
  // Watches until the stream ends. kGone means: list again.
  Status WatchOnce(StopSignal* stop) {
    Status event_error;
    auto on_line = [&](std::string_view line) {
      Result<WatchEvent<T>> event = codec_.decode_event(line);
      if (!event.ok()) {
        LOG(WARNING) << what_ << " watch: skipped an event: "
                     << event.status().message();
        return true;
      }
      // Anything from the server, bookmarks included, shows the stream is
      // up again.
      if (has_error_.load(std::memory_order_relaxed)) {
        SetLastError(Status::Ok());
      }
      return Apply(*event, &event_error);
    };
    std::uniform_int_distribution<int> timeout(300, 600);
    Status status = api_->Watch(collection_, resource_version_,
                                timeout(random_), on_line, stop->flag());
    if (!event_error.ok()) return event_error;
    return status.WithContext("watching " + what_);
  }

  // Applies one event; false ends the stream with `*error` set.
  bool Apply(const WatchEvent<T>& event, Status* error) {
    switch (event.type) {
      case WatchEventType::kError:
        *error = Status(event.error_code == 410 ? StatusCode::kGone
                                                : StatusCode::kUnavailable,
                        "watch error " + std::to_string(event.error_code) +
                            ": " + event.error_message);
        return false;
      case WatchEventType::kBookmark:
        break;
      case WatchEventType::kAdded:
      case WatchEventType::kModified:
        sink_.upsert(*event.object);
        break;
      case WatchEventType::kDeleted:
        sink_.remove(*event.object);
        break;
    }
    if (!event.resource_version.empty()) {
      resource_version_ = event.resource_version;
    }
    return true;
  }

  void SetLastError(Status status) {
    std::lock_guard<std::mutex> lock(error_mutex_);
    has_error_ = !status.ok();
    last_error_ = std::move(status);
  }

  const KubeApi* api_;
  Collection collection_;
  ReflectorCodec<T> codec_;
  ReflectorSink<T> sink_;
  std::string what_;
  std::string resource_version_;
  std::mt19937 random_{std::random_device{}()};
  void CountRestart(const char* reason) const {
    GlobalMetrics().Add("propscaler_watch_restarts_total",
                        {{"resource", what_}, {"reason", reason}});
  }

  int restarts_ = 0;
  bool stop_when_forbidden_ = false;
  std::atomic<bool> forbidden_{false};
  mutable std::mutex error_mutex_;
  Status last_error_;
  std::atomic<bool> has_error_{false};
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_REFLECTOR_H_
