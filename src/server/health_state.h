// What /healthz and /last-poll report: whether the control loop is still
// turning, and how its last cycle ended. Written by the loop, read by the
// HTTP server's threads.
#ifndef PROPSCALER_SERVER_HEALTH_STATE_H_
#define PROPSCALER_SERVER_HEALTH_STATE_H_

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "common/status.h"

namespace propscaler {

class HealthState {
 public:
  using Clock = std::chrono::steady_clock;

  // The loop is considered dead when it has not beaten for `stall_after`.
  explicit HealthState(Clock::duration stall_after)
      : stall_after_(stall_after) {}

  void Heartbeat(Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    last_beat_ = now;
  }
  void CycleFinished(const Status& status) {
    std::lock_guard<std::mutex> lock(mutex_);
    last_cycle_ = status;
  }

  bool LoopAlive(Clock::time_point now) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_beat_.has_value() && now - *last_beat_ < stall_after_;
  }
  // Empty before the first cycle ends.
  std::optional<Status> LastCycle() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_cycle_;
  }

 private:
  const Clock::duration stall_after_;
  mutable std::mutex mutex_;
  std::optional<Clock::time_point> last_beat_;
  std::optional<Status> last_cycle_;
};

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_HEALTH_STATE_H_
