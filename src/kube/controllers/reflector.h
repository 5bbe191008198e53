// Keeps a local copy of a collection current: a WatchList (one watch that
// starts with the whole collection) where the server has it, else a list
// page by page and a watch from the list's resourceVersion. A 410 (Expired)
// lists again; a dropped, failed or silent stream (see
// KubeApiOptions::idle_timeout) reconnects after a capped exponential backoff
// with jitter, never sooner than the server's Retry-After; a stream the server
// ends normally is resumed at once from the newest resourceVersion seen.
//
// A list that fails on any page, or arrives truncated, is dropped whole: the
// sink only ever sees complete lists. LastError() says whether the copy may
// be stale: the error of the last failed attempt, until one succeeds.
//
// A reflector told to StopWhenForbidden() returns from Run() at the first
// 403 instead of retrying, so its owner can fall back to what RBAC allows.
//
// The objects arrive decoded into compact form from a ListWatch and are
// handed to a Sink; the reflector keeps nothing but the resourceVersion.
// Every wait goes through the StopSignal's clock.
#ifndef PROPSCALER_KUBE_CONTROLLERS_REFLECTOR_H_
#define PROPSCALER_KUBE_CONTROLLERS_REFLECTOR_H_

#include <glog/logging.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "common/backoff.h"
#include "common/metrics.h"
#include "common/stop_signal.h"
#include "kube/model/list_watch.h"
#include "kube/model/objects.h"

namespace propscaler::kube {

// How often a list, watch or GET that RBAC refused is tried again.
inline constexpr std::chrono::minutes kForbiddenRetryPeriod{5};

template <typename T>
struct ReflectorSink {
  std::function<void(std::vector<T>)> replace;  // after every full list
  std::function<void(const T&)> upsert;
  std::function<void(const T&)> remove;
  // Optional, in place of replace: each page of a list as it is decoded
  // (`first` starts a new list: drop what an unfinished one staged), then
  // commit once the list is complete. No list is then held whole.
  std::function<void(std::vector<T> page, bool first)> stage;
  std::function<void()> commit;
};

template <typename T>
class Reflector {
 public:
  static constexpr int kPageSize = 500;
  // Retries back off from kInitialBackoff to kMaxBackoff: a hot loop never,
  // and data a poll period or so old at most after the server recovers.
  static constexpr std::chrono::milliseconds kInitialBackoff{200};
  static constexpr std::chrono::seconds kMaxBackoff{10};
  // How often RunRetryingWhenForbidden tries a forbidden list again.
  static constexpr int kQuickForbiddenRetries = 6;

  Reflector(std::unique_ptr<ListWatch<T>> source, ReflectorSink<T> sink,
            std::string what)
      : source_(std::move(source)),
        sink_(std::move(sink)),
        what_(std::move(what)) {
    GlobalMetrics().DeclareCounter(
        "propscaler_watch_restarts_total",
        "Lists and watches started again after a failure (reason \"error\") "
        "or an expired resourceVersion (\"expired\").");
  }

  // Lists the whole collection once and hands it to the sink. The first
  // list of a reflector may be served from the server's watch cache (any
  // resourceVersion, as client-go's first list is: the watch that follows
  // brings it up to date); a list again after an expired resourceVersion
  // reads the newest.
  Status ListOnce() {
    std::vector<T> items;
    bool first = true;
    ListCall<T> call{.limit = kPageSize,
                     .any_version = !listed_before_,
                     .on_items = [&](std::vector<T> batch) {
                       Take(std::move(batch), &items, first);
                       first = false;
                     }};
    do {
      Result<ListPage<T>> page = source_->List(call);
      if (!page.ok()) return page.status().WithContext("listing " + what_);
      for (const std::string& error : page->item_errors) {
        LOG(WARNING) << "listing " << what_ << ": skipped an item: " << error;
      }
      Take(std::move(page->items), &items, first);
      first = false;
      resource_version_ = page->resource_version;
      call.continue_token = std::move(page->continue_token);
      call.any_version = false;
    } while (!call.continue_token.empty());
    Complete(std::move(items));
    listed_before_ = true;
    return Status::Ok();
  }

  // Makes Run() return at the first 403 (RBAC forbids the list or watch),
  // with forbidden() true and LastError() saying what was refused.
  void StopWhenForbidden() { stop_when_forbidden_ = true; }
  bool forbidden() const { return forbidden_.load(); }

  // Lists and watches until `stop`. With `resume`, a copy that was whole
  // when the last Run() ended is not listed again: the watch resumes from
  // its resourceVersion (a 410 lists again).
  void Run(StopSignal* stop, bool resume = false) {
    forbidden_ = false;
    Backoff backoff(kInitialBackoff, kMaxBackoff);
    bool failing = false;  // the last attempt failed (not refused)
    bool listed = resume && listed_when_stopped_;
    listed_when_stopped_ = false;
    while (!stop->stopped()) {
      Status status = listed        ? WatchOnce(stop)
                      : watch_list_ ? WatchListOnce(stop, &listed)
                                    : ListOnce();
      if (stop->stopped()) return;
      if (!listed && watch_list_ &&
          status.code() == StatusCode::kInvalidArgument) {
        LOG(INFO) << what_ << ": the server refused a WatchList ("
                  << status.message() << "); listing in pages instead";
        watch_list_ = false;
        continue;
      }
      if (status.code() == StatusCode::kGone) {
        LOG(INFO) << what_ << ": resourceVersion expired, listing again";
        CountRestart("expired");
        listed = false;
        continue;
      }
      if (status.code() == StatusCode::kPermissionDenied &&
          stop_when_forbidden_) {
        SetLastError(status);
        listed_when_stopped_ = listed;
        refused_after_failure_ = failing;
        forbidden_ = true;
        return;
      }
      failing = !status.ok();
      if (status.ok()) {
        listed = true;
        backoff.Reset();
        SetLastError(Status::Ok());
        continue;
      }
      SetLastError(status);
      const auto wait = std::max(backoff.Next(), source_->RetryAfterLeft());
      LOG(WARNING) << what_ << ": " << status.message() << "; retrying in "
                   << wait.count() << "ms";
      ++restarts_;
      CountRestart("error");
      if (stop->WaitFor(wait)) return;
    }
  }

  // Run(), and while RBAC forbids the list or watch: `on_forbidden` with
  // the refusal (the owner falls back to what RBAC allows), then Run() again
  // every kForbiddenRetryPeriod, since a 403 may pass (a server whose RBAC
  // cache is still filling after a restart, a role granted later). Returns
  // when `on_forbidden` answers false (the owner has given up).
  //
  // A refusal after a watch was accepted before, or right after the server
  // could not be reached, is most likely a server whose RBAC cache is still
  // filling after a restart: it is tried again within seconds (1, 2, 4 ...
  // 32 s), resuming the watch where it was, and the owner is told only when
  // those retries are refused too.
  void RunRetryingWhenForbidden(
      StopSignal* stop,
      const std::function<bool(const Status& refused)>& on_forbidden) {
    StopWhenForbidden();
    int quick = 0;
    int opened = watches_opened_;
    bool fell_back = false;
    bool after_outage = false;  // refused since the server came back
    Run(stop);
    while (forbidden() && !stop->stopped()) {
      if (watches_opened_ > opened) {  // allowed again meanwhile
        quick = 0;
        fell_back = false;
        after_outage = false;
      }
      opened = watches_opened_;
      after_outage = after_outage || refused_after_failure_;
      const bool transient = (watches_opened_ > 0 || after_outage) &&
                             quick < kQuickForbiddenRetries;
      if (!transient) {
        if (!on_forbidden(LastError())) break;
        fell_back = true;
      }
      const Duration wait = transient
                                ? Duration(std::chrono::seconds(1 << quick++))
                                : Duration(kForbiddenRetryPeriod);
      if (stop->WaitFor(wait)) break;
      // Once the owner has fallen back, its own lists replace the copy: the
      // watch starts from a list of its own again.
      Run(stop, /*resume=*/!fell_back);
    }
  }

  int restarts() const { return restarts_; }

  // OK, or the last failure while the local copy may be stale.
  Status LastError() const {
    std::lock_guard<std::mutex> lock(error_mutex_);
    return last_error_;
  }

 private:
  // A watch event that could not be decoded is logged and skipped.
  bool Undecodable(const Result<WatchEvent<T>>& event) const {
    if (event.ok()) return false;
    LOG(WARNING) << what_
                 << " watch: skipped an event: " << event.status().message();
    return true;
  }

  // Watches end at a random 5 to 10 minutes, as client-go's do, so that
  // many clients do not renew at once.
  int WatchTimeoutSeconds() {
    return std::uniform_int_distribution<int>(300, 600)(random_);
  }

  // Watches until the stream ends. kGone means: list again.
  Status WatchOnce(StopSignal* stop) {
    Status event_error;
    auto on_event = [&](Result<WatchEvent<T>> event) {
      if (Undecodable(event)) return true;
      return Apply(*event, &event_error);
    };
    // Accepted by the server, the watch resumes from the resourceVersion the
    // copy was current at: it is no longer stale, even before any event
    // comes (on a quiet collection, the first bookmark takes a minute).
    auto on_open = [&] {
      ++watches_opened_;
      if (has_error_.load(std::memory_order_relaxed)) {
        SetLastError(Status::Ok());
      }
    };
    Status status = source_->Watch(resource_version_, WatchTimeoutSeconds(),
                                   on_event, stop, on_open);
    if (!event_error.ok()) return event_error;
    return status.WithContext("watching " + what_);
  }

  // A WatchList: the initial ADDED events go to the sink as a list's pages
  // would, completed at the bookmark that ends them (`*listed` then true);
  // the stream then goes on as a watch. Ending before that bookmark is an
  // error.
  Status WatchListOnce(StopSignal* stop, bool* listed) {
    std::vector<T> initial;
    std::vector<T> batch;  // staged in pages, as a list's
    bool first = true;
    Status event_error;
    auto on_event = [&](Result<WatchEvent<T>> event) {
      if (Undecodable(event)) return true;
      if (*listed || event->type == WatchEventType::kError) {
        return Apply(*event, &event_error);
      }
      if (event->object.has_value() &&
          event->type != WatchEventType::kDeleted) {
        batch.push_back(std::move(*event->object));
      }
      if (batch.size() == kPageSize || event->initial_events_end) {
        Take(std::move(batch), &initial, first);
        batch = {};
        first = false;
      }
      if (event->initial_events_end) {
        ++watches_opened_;
        resource_version_ = event->resource_version;
        Complete(std::move(initial));
        initial = {};
        *listed = true;
        SetLastError(Status::Ok());
      }
      return true;
    };
    Status status =
        source_->WatchList(WatchTimeoutSeconds(), on_event, stop, {});
    if (!event_error.ok()) return event_error;
    if (!status.ok()) {
      // A 410 answering the request itself is not an expired copy (there is
      // none yet): retried with backoff, not at once.
      if (!*listed && status.code() == StatusCode::kGone) {
        status = Status::Unavailable(status.message());
      }
      return status.WithContext("watch-listing " + what_);
    }
    if (!*listed) {
      return Status::Unavailable("watch-listing " + what_ +
                                 ": the stream ended before its initial "
                                 "events did");
    }
    return Status::Ok();
  }

  // Part of a list: staged in the sink where it takes pages, else kept in
  // `*items` for Complete.
  void Take(std::vector<T> part, std::vector<T>* items, bool first) {
    if (sink_.stage) {
      sink_.stage(std::move(part), first);
    } else {
      std::move(part.begin(), part.end(), std::back_inserter(*items));
    }
  }
  // The list is whole.
  void Complete(std::vector<T> items) {
    if (sink_.stage) {
      sink_.commit();
    } else {
      sink_.replace(std::move(items));
    }
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

  std::unique_ptr<ListWatch<T>> source_;
  ReflectorSink<T> sink_;
  std::string what_;
  std::string resource_version_;
  bool listed_before_ = false;  // a list has completed: the next reads newest
  bool listed_when_stopped_ = false;    // the copy was whole when Run() ended
  std::atomic<int> watches_opened_{0};  // accepted by the server
  std::mt19937 random_{std::random_device{}()};
  void CountRestart(const char* reason) const {
    GlobalMetrics().Add("propscaler_watch_restarts_total",
                        {{"resource", what_}, {"reason", reason}});
  }

  int restarts_ = 0;
  bool watch_list_ = true;  // until the server refuses one
  bool stop_when_forbidden_ = false;
  // The last refusal came right after a failed attempt (a restart).
  bool refused_after_failure_ = false;
  std::atomic<bool> forbidden_{false};
  mutable std::mutex error_mutex_;
  Status last_error_;
  std::atomic<bool> has_error_{false};
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CONTROLLERS_REFLECTOR_H_
