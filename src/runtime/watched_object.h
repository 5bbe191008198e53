// One named object (a target workload, its scale, a ConfigMap) kept current
// by a list and watch selected by metadata.name (which RBAC's resourceNames
// can grant): a cycle reads it without a request, and a change starts a
// cycle at once through `on_change`.
//
// While RBAC refuses the list or watch, Read() GETs the object instead (said
// once in the log) and the watch is tried again every kForbiddenRetryPeriod;
// while RBAC refuses the GET too, Read() hands back that refusal without
// asking again until the same period has passed (runtime/refusal.h), and
// the caller writes blindly as the tools it replaces do.
//
// The copy never goes backwards. The server's answer to propscaler's own
// write (Wrote) replaces it only when it is newer than what the watch has
// already delivered: a busy server may answer a write after it committed
// another writer's newer change, which the watch then brought first. Watch
// events older than the copy are dropped the same way. Where two versions
// cannot be ordered (kube/model/resource_version.h), the watch wins and the
// next Read() GETs the object once.
//
// Thread-safe: the watch runs on its own thread (Start .. Join).
#ifndef PROPSCALER_RUNTIME_WATCHED_OBJECT_H_
#define PROPSCALER_RUNTIME_WATCHED_OBJECT_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/mutex.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/controllers/reflector.h"
#include "kube/model/list_watch.h"
#include "kube/model/resource_version.h"
#include "runtime/refusal.h"

namespace propscaler::runtime {

template <typename T>  // has name and resource_version
class WatchedObject {
 public:
  struct Options {
    std::string name;  // metadata.name
    std::string what;  // for logs: "deployment/coredns in namespace x"
    // What the log says on a refused watch, after "reading it with a GET
    // every cycle instead", e.g. "Grant list and watch on it to ...".
    std::string grant_hint;
    // The cause a change is notified with; empty: "WHAT changed".
    std::string changed_cause;
    // What the log says the owner does while the GET is refused too, after
    // the refusal; empty: "writing WHAT without reading it first".
    std::string get_fallback;
    // Whether going from `before` to `after` is a change worth a cycle;
    // empty: any new resourceVersion.
    std::function<bool(const T& before, const T& after)> differs;
  };
  using Get = std::function<Result<T>()>;
  using OnChange = std::function<void(const std::string& cause)>;

  WatchedObject(const Clock* clock, std::unique_ptr<kube::ListWatch<T>> source,
                Get get, Options options, OnChange on_change)
      : clock_(clock),
        get_(std::move(get)),
        options_(std::move(options)),
        on_change_(std::move(on_change)),
        get_refusal_(clock, options_.get_fallback.empty()
                                ? "writing " + options_.what +
                                      " without reading it first"
                                : options_.get_fallback),
        reflector_(std::move(source), Sink(), options_.what) {}
  ~WatchedObject() { Join(); }
  WatchedObject(const WatchedObject&) = delete;
  WatchedObject& operator=(const WatchedObject&) = delete;

  // Watches from a thread of `clock` until `stop`.
  void Start(StopSignal* stop) {
    thread_ = clock_->StartThread([this, stop] {
      reflector_.RunRetryingWhenForbidden(stop, [this](const Status& refused) {
        FallBackToGets(refused);
        return true;
      });
    });
  }
  // Joins the thread (after `stop` was stopped).
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  // Listed once, or known to be read with GETs: a cycle may run.
  bool synced() const EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    return listed_ || polled_;
  }
  // OK, or why the watched copy may be stale (OK while read with GETs).
  Status LastError() const {
    return polled() ? Status::Ok() : reflector_.LastError();
  }

  // The object: the watched copy while the watch is current, else a GET.
  // kNotFound when it does not exist.
  Result<T> Read() EXCLUDES(mutex_) {
    {
      MutexLock lock(&mutex_);
      if (listed_ && !polled_ && !reread_ && reflector_.LastError().ok()) {
        if (copy_) return *copy_;
        return Status::NotFound(options_.what + " not found");
      }
      reread_ = false;
    }
    return ReadFresh();
  }
  // A GET, whatever the watch holds (after a conflict); held back while RBAC
  // refuses it.
  Result<T> ReadFresh() EXCLUDES(mutex_) {
    if (std::optional<Status> refused = get_refusal_.Holding()) {
      return *refused;
    }
    Result<T> got = get_refusal_.Note(get_());
    MutexLock lock(&mutex_);
    if (got.ok()) {
      last_got_ = *got;
    } else if (got.status().code() == StatusCode::kNotFound) {
      last_got_.reset();
    }
    return got;
  }
  // The last copy known, even a stale one: the watched copy, or while the
  // object is read with GETs the last one read.
  std::optional<T> Cached() const EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    return polled_ ? last_got_ : copy_;
  }

  // The server's answer to propscaler's own write of the object.
  void Wrote(const T& written) EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    if (!listed_ || polled_) return;  // nothing cached to keep current
    switch (kube::CompareResourceVersions(written.resource_version, version_)) {
      case kube::VersionOrder::kNewer:
        copy_ = written;
        version_ = written.resource_version;
        break;
      case kube::VersionOrder::kUnknown:
        reread_ = true;
        break;
      case kube::VersionOrder::kSame:
      case kube::VersionOrder::kOlder:
        break;
    }
  }

 private:
  kube::ReflectorSink<T> Sink() {
    return {
        [this](std::vector<T> items) {
          std::optional<T> found;
          for (T& item : items) {
            if (item.name == options_.name) found = std::move(item);
          }
          Store(std::move(found), "", /*from_list=*/true);
        },
        [this](const T& item) { Store(item, item.resource_version, false); },
        [this](const T& item) {
          Store(std::nullopt, item.resource_version, false);
        }};
  }

  // `version` is the event's; a list's object carries its own.
  void Store(std::optional<T> object, std::string version, bool from_list)
      EXCLUDES(mutex_) {
    if (object) version = object->resource_version;
    std::string cause;
    {
      MutexLock lock(&mutex_);
      if (!from_list && kube::CompareResourceVersions(version, version_) ==
                            kube::VersionOrder::kOlder) {
        return;  // the copy is newer already (a write's answer)
      }
      if (from_list && object && copy_ &&
          kube::CompareResourceVersions(version, version_) ==
              kube::VersionOrder::kOlder) {
        return;  // a list served from a cache behind the copy
      }
      const bool first = from_list && (!listed_ || polled_);
      if (first) {
        cause = options_.what + (polled_ ? " watched again" : " listed");
      } else if (Differs(copy_, object)) {
        cause = options_.changed_cause.empty() ? options_.what + " changed"
                                               : options_.changed_cause;
      }
      copy_ = std::move(object);
      version_ = version;
      if (from_list) {
        listed_ = true;
        polled_ = false;
      }
    }
    if (!cause.empty()) on_change_(cause);
  }

  // Read with a GET every cycle (RBAC refuses the watch).
  bool polled() const EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    return polled_;
  }

  bool Differs(const std::optional<T>& before,
               const std::optional<T>& after) const {
    if (before.has_value() != after.has_value()) return true;
    if (!before) return false;
    if (options_.differs) return options_.differs(*before, *after);
    return before->resource_version != after->resource_version;
  }

  void FallBackToGets(const Status& refused) EXCLUDES(mutex_) {
    {
      MutexLock lock(&mutex_);
      if (!polled_logged_) {
        LOG(WARNING) << refused.message() << "; reading " << options_.what
                     << " with a GET every cycle instead, and trying to "
                        "watch it again every "
                     << kForbiddenRetryPeriod.count() << " minutes. "
                     << options_.grant_hint;
        polled_logged_ = true;
      }
      const bool was_polled = polled_;
      polled_ = true;
      listed_ = false;
      copy_.reset();
      version_.clear();
      if (was_polled) return;
    }
    on_change_(options_.what + " read with GETs");
  }

  const Clock* clock_;
  const Get get_;
  const Options options_;
  const OnChange on_change_;
  Refusal get_refusal_;
  kube::Reflector<T> reflector_;
  std::thread thread_;

  mutable Mutex mutex_;
  std::optional<T> copy_ GUARDED_BY(mutex_);
  // The newest version the copy reflects (a deletion's too).
  std::string version_ GUARDED_BY(mutex_);
  bool listed_ GUARDED_BY(mutex_) = false;  // since the watch (re)started
  bool polled_ GUARDED_BY(mutex_) = false;  // RBAC refuses the watch
  bool polled_logged_ GUARDED_BY(mutex_) = false;
  bool reread_ GUARDED_BY(mutex_) = false;  // a write could not be ordered
  std::optional<T> last_got_ GUARDED_BY(mutex_);  // by the last GET
};

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_WATCHED_OBJECT_H_
