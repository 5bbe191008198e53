// One watch request's stream: newline-delimited JSON events
// {"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}} for the
// objects of one resource (and namespace) that pass the request's selectors.
//
// As the real server does: without resourceVersion (or with "0") the stream
// starts with an ADDED event per existing object; an object that stops
// passing the selectors is sent as DELETED and one that starts passing as
// ADDED; a resourceVersion older than the history yields one ERROR event
// (Status 410 Expired) and the end. A WatchList (sendInitialEvents=true)
// starts with an ADDED event per object and a BOOKMARK annotated
// k8s.io/initial-events-end "true". The stream ends at timeoutSeconds, on
// ObjectStore::DropWatches() and on Shutdown().
//
// Not thread-safe: one request thread drives one stream.
#ifndef PROPSCALER_TESTS_APISERVER_WATCH_STREAM_H_
#define PROPSCALER_TESTS_APISERVER_WATCH_STREAM_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "apiserver/list_options.h"
#include "apiserver/object_store.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

struct WatchSettings {
  std::chrono::seconds default_timeout{300};
  std::chrono::milliseconds bookmark_interval{10000};
  size_t max_events_per_write = 500;
};

class WatchStream {
 public:
  // The stream also ends once `*cancel` (when given) is set and the store's
  // clock notified.
  WatchStream(const ObjectStore& store, ResourcePath path, ListOptions options,
              const WatchSettings& settings,
              const std::atomic<bool>* cancel = nullptr);

  // Blocks until there is something to send, then appends it to `out`
  // (possibly nothing, e.g. only filtered-out events). False when the
  // stream has ended and nothing was appended.
  bool Next(std::string* out);

 private:
  void AppendInitialEvents(std::string* out);
  void AppendEvent(const WatchEvent& event, std::string* out) const;
  void AppendBookmark(std::string* out, bool initial_events_end) const;
  void AppendExpired(int64_t oldest, std::string* out) const;
  bool Wanted(const WatchEvent& event) const;

  const ObjectStore& store_;
  const ResourcePath path_;
  const ListOptions options_;
  const WatchSettings settings_;
  const uint64_t drop_generation_;
  const std::atomic<bool>* cancel_;
  const TimePoint deadline_;
  TimePoint next_bookmark_;
  int64_t cursor_ = 0;  // every event up to here has been considered
  bool started_ = false;
  bool ended_ = false;
};

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_WATCH_STREAM_H_
