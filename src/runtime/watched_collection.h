// A collection (the counted nodes, every pod) kept current in its owner's
// store by a list and watch, handed over through a kube::ReflectorSink;
// every change and every complete list goes to `on_change` with its cause.
//
// While RBAC refuses the list or watch, the owner's cycle calls
// ListIfPolled(), which lists the collection whole into the sink's
// `replace` (said once in the log), and the watch is tried again every
// kForbiddenRetryPeriod, never sooner. A collection without a `replace`
// cannot be polled: it stays unsynced and LastError() says why.
//
// Thread-safe: the watch runs on its own thread (Start .. Join).
#ifndef PROPSCALER_RUNTIME_WATCHED_COLLECTION_H_
#define PROPSCALER_RUNTIME_WATCHED_COLLECTION_H_

#include <glog/logging.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "common/clock.h"
#include "common/mutex.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/controllers/reflector.h"
#include "kube/model/list_watch.h"
#include "runtime/refusal.h"

namespace propscaler::runtime {

template <typename T>
class WatchedCollection {
 public:
  using MakeSource = std::function<std::unique_ptr<kube::ListWatch<T>>()>;
  using OnChange = std::function<void(const std::string& cause)>;
  struct Options {
    std::string what;        // "nodes"
    std::string grant_hint;  // "Grant watch on nodes to react within a second"
    // Called at each refusal of the watch instead of the warning logged
    // once, for an owner that says it itself (when its lists work).
    std::function<void(const Status& refused)> on_refused;
  };

  WatchedCollection(const Clock* clock, MakeSource make_source,
                    kube::ReflectorSink<T> sink, Options options,
                    OnChange on_change)
      : clock_(clock),
        make_source_(std::move(make_source)),
        sink_(std::move(sink)),
        options_(std::move(options)),
        on_change_(std::move(on_change)),
        reflector_(make_source_(), WatchSink(), options_.what) {}
  ~WatchedCollection() { Join(); }
  WatchedCollection(const WatchedCollection&) = delete;
  WatchedCollection& operator=(const WatchedCollection&) = delete;

  void Start(StopSignal* stop) {
    thread_ = clock_->StartThread([this, stop] {
      reflector_.RunRetryingWhenForbidden(stop, [this](const Status& refused) {
        if (stop_retrying_) return false;
        FallBackToLists(refused);
        return true;
      });
    });
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  // Listed once by the watch, or listed by each cycle instead.
  bool synced() const { return listed_ || polled_; }
  // RBAC refuses the watch: the owner lists (ListIfPolled).
  bool polled() const { return polled_; }
  // The watch, refused, is not tried again (the owner gave up on it).
  void StopRetrying() { stop_retrying_ = true; }
  // OK, or why the copy may be stale.
  Status LastError() const {
    return polled_ ? last_poll_error_status() : reflector_.LastError();
  }

  // While RBAC refuses the watch: one list into the sink. OK otherwise.
  Status ListIfPolled() {
    if (!polled_) return Status::Ok();
    Status status = ListOnce();
    SetPollError(status);
    return status;
  }
  // One list into the sink (its `replace`, or its `stage` and `commit`),
  // from a source of its own.
  Status ListOnce() {
    kube::Reflector<T> once(
        make_source_(),
        {sink_.replace, nullptr, nullptr, sink_.stage, sink_.commit},
        options_.what);
    return once.ListOnce();
  }

 private:
  kube::ReflectorSink<T> WatchSink() {
    kube::ReflectorSink<T> sink = sink_;
    auto listed = [this] {
      const bool was_polled = polled_.exchange(false);
      listed_ = true;
      on_change_(options_.what + (was_polled ? " watched again" : " listed"));
    };
    if (sink.commit) {
      sink.commit = [commit = sink_.commit, listed] {
        commit();
        listed();
      };
    } else {
      sink.replace = [replace = sink_.replace, listed](std::vector<T> items) {
        replace(std::move(items));
        listed();
      };
    }
    return sink;
  }

  void FallBackToLists(const Status& refused) {
    if (!sink_.replace) {
      SayRefused(refused, "trying again every " +
                              std::to_string(kForbiddenRetryPeriod.count()) +
                              " minutes");
      return;
    }
    SayRefused(refused,
               "listing " + options_.what +
                   " every cycle instead, and trying to watch again every " +
                   std::to_string(kForbiddenRetryPeriod.count()) + " minutes");
    listed_ = false;
    if (!polled_.exchange(true))
      on_change_(options_.what + " listed by cycles");
  }
  void SayRefused(const Status& refused, const std::string& instead) {
    if (options_.on_refused) {
      options_.on_refused(refused);
      return;
    }
    LOG_IF(WARNING, !logged_.exchange(true))
        << refused.message() << "; " << instead << ". " << options_.grant_hint;
  }

  Status last_poll_error_status() const EXCLUDES(poll_error_mutex_) {
    MutexLock lock(&poll_error_mutex_);
    return last_poll_error_;
  }
  void SetPollError(Status status) EXCLUDES(poll_error_mutex_) {
    MutexLock lock(&poll_error_mutex_);
    last_poll_error_ = std::move(status);
  }

  const Clock* clock_;
  const MakeSource make_source_;
  const kube::ReflectorSink<T> sink_;
  const Options options_;
  const OnChange on_change_;
  kube::Reflector<T> reflector_;
  std::thread thread_;
  std::atomic<bool> listed_{false};
  std::atomic<bool> polled_{false};
  std::atomic<bool> logged_{false};
  std::atomic<bool> stop_retrying_{false};
  mutable Mutex poll_error_mutex_;
  Status last_poll_error_ GUARDED_BY(poll_error_mutex_);
};

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_WATCHED_COLLECTION_H_
