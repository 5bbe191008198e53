// What /healthz and /last-poll report: whether the control loop is still
// turning (and, where the mode asks, whether what it reads has been stale
// too long), and how its last cycle ended. Written by the loop, read by the
// HTTP server's threads.
#ifndef PROPSCALER_COMMON_HEALTH_STATE_H_
#define PROPSCALER_COMMON_HEALTH_STATE_H_

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "common/clock.h"
#include "common/status.h"

namespace propscaler {

class HealthState {
 public:
  // The loop is considered dead when it has not beaten for `stall_after`.
  HealthState(const Clock* clock, Duration stall_after)
      : clock_(clock), stall_after_(stall_after) {}

  void Heartbeat() {
    const TimePoint now = clock_->Now();
    std::lock_guard<std::mutex> lock(mutex_);
    last_beat_ = now;
  }
  void CycleFinished(const Status& status) {
    std::lock_guard<std::mutex> lock(mutex_);
    last_cycle_ = status;
  }

  // Told every turn whether what the loop reads may be stale (OK, or a
  // watch's failure).
  void StalenessReported(const Status& staleness) {
    const TimePoint now = clock_->Now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (staleness.ok()) {
      stale_since_.reset();
    } else if (!stale_since_.has_value()) {
      stale_since_ = now;
    }
    staleness_ = staleness;
  }
  // From now on, staleness that lasts `limit` fails /healthz too (node-scale
  // mode: a process whose watches keep failing is restarted).
  void FailWhenStaleFor(Duration limit) {
    std::lock_guard<std::mutex> lock(mutex_);
    stale_limit_ = limit;
  }
  Duration stall_after() const { return stall_after_; }

  // What the loop waits for (the first lists, a forbidden watch, the lease),
  // told every turn; empty once it cycles. The status page shows it.
  void WaitingFor(std::string reason) {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_ = std::move(reason);
  }
  std::string Waiting() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return waiting_;
  }
  // What the loop serves without (a volume kind RBAC refuses), told every
  // turn; empty when nothing. /healthz says it in its body, still 200.
  void DegradedBy(std::string reason) {
    std::lock_guard<std::mutex> lock(mutex_);
    degraded_ = std::move(reason);
  }
  std::string Degraded() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return degraded_;
  }

  bool LoopAlive() const {
    const TimePoint now = clock_->Now();
    std::lock_guard<std::mutex> lock(mutex_);
    return Beating(now);
  }
  // Empty while healthy; else why /healthz fails.
  std::optional<std::string> Unhealthy() const {
    const TimePoint now = clock_->Now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (!Beating(now)) return "control loop stalled";
    if (stale_limit_.has_value() && stale_since_.has_value() &&
        now - *stale_since_ >= *stale_limit_) {
      const auto seconds =
          std::chrono::duration_cast<std::chrono::seconds>(now - *stale_since_);
      return "stale for " + std::to_string(seconds.count()) +
             " s: " + staleness_.message();
    }
    return std::nullopt;
  }
  // Empty before the first cycle ends.
  std::optional<Status> LastCycle() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_cycle_;
  }

 private:
  // Under mutex_.
  bool Beating(TimePoint now) const {
    return last_beat_.has_value() && now - *last_beat_ < stall_after_;
  }

  const Clock* clock_;
  const Duration stall_after_;
  mutable std::mutex mutex_;
  std::optional<TimePoint> last_beat_;
  std::optional<Status> last_cycle_;
  std::optional<Duration> stale_limit_;
  std::optional<TimePoint> stale_since_;
  Status staleness_;
  std::string waiting_ = "starting: no turn of the loop yet";
  std::string degraded_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_HEALTH_STATE_H_
