// The wall clock behind an interface, so that timers (unneeded time,
// provisioning deadlines, backoff, leases) are tested without sleeping.
#ifndef PROPSCALER_COMMON_CLOCK_H_
#define PROPSCALER_COMMON_CLOCK_H_

#include <chrono>
#include <mutex>

namespace propscaler {

using TimePoint = std::chrono::system_clock::time_point;
using Duration = std::chrono::system_clock::duration;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
};

class SystemClock : public Clock {
 public:
  TimePoint Now() const override { return std::chrono::system_clock::now(); }
};

// A clock tests move by hand. Thread-safe.
class FakeClock : public Clock {
 public:
  explicit FakeClock(TimePoint start = TimePoint(std::chrono::hours(1000)))
      : now_(start) {}
  TimePoint Now() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return now_;
  }
  void Advance(Duration by) {
    std::lock_guard<std::mutex> lock(mutex_);
    now_ += by;
  }

 private:
  mutable std::mutex mutex_;
  TimePoint now_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_CLOCK_H_
