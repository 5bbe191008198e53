// What /healthz and /last-poll report: whether the control loop is still
// turning, and how its last cycle ended. Written by the loop, read by the
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

  bool LoopAlive() const {
    const TimePoint now = clock_->Now();
    std::lock_guard<std::mutex> lock(mutex_);
    return last_beat_.has_value() && now - *last_beat_ < stall_after_;
  }
  // Empty before the first cycle ends.
  std::optional<Status> LastCycle() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_cycle_;
  }

 private:
  const Clock* clock_;
  const Duration stall_after_;
  mutable std::mutex mutex_;
  std::optional<TimePoint> last_beat_;
  std::optional<Status> last_cycle_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_HEALTH_STATE_H_
