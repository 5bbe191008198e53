// The watches a mode reads (WatchedCollection, WatchedObject), held as one
// set: started and joined together, their failures joined into one
// staleness Status for the cycle driver and /healthz, and, for --once,
// listed once each without watching.
//
// Not thread-safe: built, started and joined on one thread; Staleness() and
// ListOnce() may be called from the loop's.
#ifndef PROPSCALER_RUNTIME_WATCH_SET_H_
#define PROPSCALER_RUNTIME_WATCH_SET_H_

#include <functional>
#include <vector>

#include "common/status.h"
#include "common/stop_signal.h"

namespace propscaler::runtime {

class WatchSet {
 public:
  // `watch` outlives the set. A watch without ListOnce() (a WatchedObject,
  // which GETs its object while it is not watched) is not listed by
  // ListOnce(). One without LastError() (a set of objects each read with a
  // GET while its watch fails, as replica mode's targets) adds nothing to
  // Staleness().
  // While `excused` holds, the watch's failure is not staleness (the mode
  // serves without it and says so itself).
  template <typename Watch>
  void Add(Watch* watch, std::function<bool()> excused = nullptr) {
    Member member{[watch](StopSignal* stop) { watch->Start(stop); },
                  [watch] { watch->Join(); }, nullptr, nullptr};
    if constexpr (requires { watch->LastError(); }) {
      member.last_error = [watch, excused = std::move(excused)] {
        return excused && excused() ? Status::Ok() : watch->LastError();
      };
    }
    if constexpr (requires { watch->ListOnce(); }) {
      member.list_once = [watch] { return watch->ListOnce(); };
    }
    members_.push_back(std::move(member));
  }

  void Start(StopSignal* stop) const;
  // After `stop` was stopped.
  void Join() const;
  // OK, or every failing watch's error: what a cycle reads may be stale.
  Status Staleness() const;
  // One list of each listable watch, in the order added; the first failure.
  Status ListOnce() const;

 private:
  struct Member {
    std::function<void(StopSignal*)> start;
    std::function<void()> join;
    std::function<Status()> last_error;  // empty: never stale
    std::function<Status()> list_once;   // empty: not listable
  };
  std::vector<Member> members_;
};

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_WATCH_SET_H_
