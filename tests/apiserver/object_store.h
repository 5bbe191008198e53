// The simulated cluster's state: objects of every resource type, one global
// resourceVersion counter, and a bounded history of watch events.
//
// Every create, update and delete bumps the counter by one and records one
// event, so event N of the history has resourceVersion N. A watch from
// resourceVersion R needs every event after R; once the history has dropped
// them (it is bounded, or a test compacted it) the answer is 410 Expired.
//
// Objects are kept as compact JSON with their labels parsed, shared by
// pointer with lists and watch events, so serving a list copies pointers
// under the lock and strings outside it.
//
// Thread-safe: one mutex guards everything; watchers wait on the store's
// Clock, which every write, DropWatches() and Shutdown() notify (a virtual
// clock in tests of the loops, tests/memcluster/).
#ifndef PROPSCALER_TESTS_APISERVER_OBJECT_STORE_H_
#define PROPSCALER_TESTS_APISERVER_OBJECT_STORE_H_

#include <rapidjson/document.h>

#include <atomic>
#include <chrono>
#include <compare>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "apiserver/api_error.h"
#include "apiserver/resources.h"
#include "common/clock.h"
#include "common/label_selector.h"

namespace propscaler::sim {

struct StoredObject {
  std::string json;  // compact, metadata.resourceVersion included
  Labels labels;
  // Values of the selectable fields besides metadata.name and namespace
  // ("spec.nodeName", "status.phase"), when the object has them.
  std::map<std::string, std::string> fields;
  int64_t resource_version = 0;
};
using ObjectPtr = std::shared_ptr<const StoredObject>;

// Namespace ("" when cluster-scoped) and name; ordered as etcd keys are.
struct ObjectKey {
  std::string ns;
  std::string name;
  auto operator<=>(const ObjectKey&) const = default;
};

enum class EventType { kAdded, kModified, kDeleted };
const char* EventTypeName(EventType type);

struct WatchEvent {
  int64_t resource_version = 0;
  EventType type = EventType::kAdded;
  const ResourceType* resource = nullptr;
  ObjectKey key;
  ObjectPtr object;    // the new state; for kDeleted the last state
  ObjectPtr previous;  // for kModified, the state before; else null
};

// Which objects a list or watch wants; namespace "" means all.
using ObjectFilter = std::function<bool(const ObjectKey&, const StoredObject&)>;

struct ListChunk {
  int64_t resource_version = 0;  // of the store when the chunk was taken
  std::vector<std::pair<ObjectKey, ObjectPtr>> objects;
  bool more = false;      // objects after the last one match too
  int64_t remaining = 0;  // objects after the last one (unfiltered count)
};

struct WaitResult {
  enum class Kind { kEvents, kWakeUp, kDropped, kExpired, kShutdown };
  Kind kind = Kind::kWakeUp;
  std::vector<WatchEvent> events;  // kEvents: in order, all after the cursor
  int64_t resource_version = 0;    // of the store when the wait returned
  int64_t oldest_watchable = 0;    // for kExpired messages
};

class ObjectStore {
 public:
  // `clock` null: the store's own real clock.
  explicit ObjectStore(size_t history_size, const Clock* clock = nullptr);
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  // Edits a parsed copy of an object; an error aborts the write.
  using Mutation = std::function<std::optional<ApiError>(rapidjson::Document&)>;

  // Sets uid, creationTimestamp, resourceVersion, namespace, kind and
  // apiVersion; a missing name is made from metadata.generateName.
  ApiResult<ObjectPtr> Create(const ResourceType& type, const std::string& ns,
                              rapidjson::Document object);
  // Replaces the object; 409 Conflict when the body names a stale
  // metadata.resourceVersion. uid and creationTimestamp are kept.
  ApiResult<ObjectPtr> Update(const ResourceType& type, const std::string& ns,
                              const std::string& name,
                              rapidjson::Document object);
  // RFC 7386 merge, or a strategic merge (merge_patch.h); 409 when the
  // patch names a stale resourceVersion, 422 when the result is not a
  // valid pod template (pod_template_validation.h).
  enum class PatchType { kMerge, kStrategic };
  ApiResult<ObjectPtr> Patch(const ResourceType& type, const std::string& ns,
                             const std::string& name,
                             const rapidjson::Value& patch,
                             PatchType patch_type = PatchType::kMerge);
  // Read-modify-write of one object under the lock.
  ApiResult<ObjectPtr> Mutate(const ResourceType& type, const std::string& ns,
                              const std::string& name, const Mutation& mutate);
  // DeleteOptions.preconditions: empty fields are not checked; a mismatch
  // is the real server's 409 Conflict, in its words.
  struct Preconditions {
    std::string uid;
    std::string resource_version;
  };
  ApiResult<ObjectPtr> Delete(const ResourceType& type, const std::string& ns,
                              const std::string& name,
                              const Preconditions& preconditions = {});
  ApiResult<ObjectPtr> Get(const ResourceType& type, const std::string& ns,
                           const std::string& name) const;

  // Up to `limit` (0: all) objects of `type` in `ns` ("" all) after
  // `start_after` (nullopt: from the start) that pass `filter`.
  ListChunk List(const ResourceType& type, const std::string& ns,
                 const std::optional<ObjectKey>& start_after,
                 const ObjectFilter& filter, size_t limit) const;

  // Blocks until there are events after `after_rv`, `wake_at` passes,
  // DropWatches() moved past `drop_generation`, Shutdown(), or `*cancel`
  // (notified through the store's clock). Returns at most `max_events`
  // events.
  WaitResult WaitForEvents(int64_t after_rv, TimePoint wake_at,
                           uint64_t drop_generation, size_t max_events,
                           const std::atomic<bool>* cancel = nullptr) const;

  const Clock* clock() const { return clock_; }

  // Bounds the history (at least one event); trims it at the next write.
  void SetHistorySize(size_t size);

  int64_t resource_version() const;
  // The oldest resourceVersion a watch may start from.
  int64_t oldest_watchable() const;
  uint64_t drop_generation() const;

  // Test hooks: forget all history (watches from before now get 410); end
  // every open watch; end them for good.
  void CompactHistory();
  void DropWatches();
  void Shutdown();

 private:
  using ObjectMap = std::map<ObjectKey, ObjectPtr>;

  ObjectPtr CommitLocked(const ResourceType& type, const ObjectKey& key,
                         rapidjson::Document& doc, EventType event,
                         ObjectPtr previous);
  void RecordLocked(WatchEvent event);
  std::optional<ApiError> PrepareNewLocked(const ResourceType& type,
                                           const std::string& ns,
                                           rapidjson::Document& doc);
  std::string NewUidLocked();
  std::string RandomSuffixLocked();

  size_t history_size_;
  RealClock own_clock_;
  const Clock* clock_;
  mutable std::mutex mu_;
  std::map<std::string, ObjectMap> objects_;  // by resource plural
  std::deque<WatchEvent> history_;
  // Atomic so that waiters' conditions read them without the mutex (the
  // clock evaluates them under its own lock).
  std::atomic<int64_t> resource_version_ = 0;
  std::atomic<int64_t> oldest_watchable_ = 0;
  std::atomic<uint64_t> drop_generation_ = 0;
  std::atomic<bool> shut_down_ = false;
  std::mt19937_64 random_;
};

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_OBJECT_STORE_H_
