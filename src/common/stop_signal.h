// A one-way stop flag that sleeping threads can wait on, so that every wait
// in the daemon ends at once on SIGTERM. Waits go through the signal's
// Clock, so they run in virtual time in tests.
#ifndef PROPSCALER_COMMON_STOP_SIGNAL_H_
#define PROPSCALER_COMMON_STOP_SIGNAL_H_

#include <atomic>
#include <functional>

#include "common/clock.h"

namespace propscaler {

class StopSignal {
 public:
  explicit StopSignal(const Clock* clock) : clock_(clock) {}

  void Stop() {
    stopped_ = true;
    clock_->Notify();
  }
  bool stopped() const { return stopped_.load(); }
  const Clock* clock() const { return clock_; }
  // For code that polls a flag (curl's progress callback).
  const std::atomic<bool>* flag() const { return &stopped_; }

  // Sleeps up to `duration`; returns true if stopped meanwhile.
  bool WaitFor(Duration duration) const {
    return clock_->WaitFor(duration, [this] { return stopped(); });
  }
  // Sleeps until `ready()` or the deadline; returns true if stopped
  // meanwhile. `ready` follows Clock::WaitUntil's rules.
  bool WaitUntil(TimePoint deadline, const std::function<bool()>& ready) const {
    clock_->WaitUntil(deadline, [&] { return stopped() || ready(); });
    return stopped();
  }

 private:
  const Clock* clock_;
  std::atomic<bool> stopped_{false};
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_STOP_SIGNAL_H_
