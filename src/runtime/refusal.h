// The one way propscaler treats a request kind that RBAC refused (HTTP 403):
// it says so once in the log, with what it does instead, and does not send
// that kind again before `retry_after` has passed (a refusal may pass: a
// role granted later, a server whose RBAC cache is still filling after a
// restart). Until then the caller is handed the refusal without a request.
// A zero `retry_after` never asks again (Events, the HPA check).
//
// Thread-safe.
#ifndef PROPSCALER_RUNTIME_REFUSAL_H_
#define PROPSCALER_RUNTIME_REFUSAL_H_

#include <chrono>
#include <optional>
#include <string>

#include "common/clock.h"
#include "common/mutex.h"
#include "common/status.h"
#include "kube/controllers/reflector.h"

namespace propscaler::runtime {

// How often a refused list, watch or GET is tried again: the reflectors'.
using kube::kForbiddenRetryPeriod;

class Refusal {
 public:
  // `fallback` completes "...; FALLBACK" in the one log line, e.g.
  // "patching it blindly, as CPVA does".
  Refusal(const Clock* clock, std::string fallback,
          Duration retry_after = kForbiddenRetryPeriod)
      : clock_(clock),
        fallback_(std::move(fallback)),
        retry_after_(retry_after) {}

  // The refusal while the request must not be sent again; nullopt when it
  // may be sent.
  std::optional<Status> Holding() const EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    if (!refused_) return std::nullopt;
    if (retry_after_ != Duration::zero() &&
        clock_->Now() >= refused_at_ + retry_after_) {
      return std::nullopt;
    }
    return refusal_;
  }

  // Records the answer to a request that was sent: a 403 holds further
  // requests back (logged the first time); any other answer releases them.
  // Returns `answer`.
  template <typename R>
  const R& Note(const R& answer) EXCLUDES(mutex_) {
    NoteStatus(answer.ok() ? Status::Ok() : StatusOf(answer));
    return answer;
  }

 private:
  static const Status& StatusOf(const Status& status) { return status; }
  template <typename T>
  static const Status& StatusOf(const Result<T>& result) {
    return result.status();
  }
  void NoteStatus(const Status& status) EXCLUDES(mutex_);

  const Clock* clock_;
  const std::string fallback_;
  const Duration retry_after_;
  mutable Mutex mutex_;
  bool refused_ GUARDED_BY(mutex_) = false;
  bool logged_ GUARDED_BY(mutex_) = false;
  TimePoint refused_at_ GUARDED_BY(mutex_);
  Status refusal_ GUARDED_BY(mutex_);
};

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_REFUSAL_H_
