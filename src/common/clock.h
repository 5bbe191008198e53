// Time behind one seam: every loop, reflector, backoff, timer, lease and
// de-duplication reads the time and sleeps through a Clock, so tests run
// hours of cluster life in virtual time (VirtualClock) and production uses
// the system clock (RealClock).
//
// A wait is WaitUntil(deadline, ready): it returns when `ready()` holds or the
// deadline passes. Whoever changes what a `ready` reads calls Notify() after
// the change. `ready` runs under the clock's lock: it must be quick, must not
// block and must not call the clock.
#ifndef PROPSCALER_COMMON_CLOCK_H_
#define PROPSCALER_COMMON_CLOCK_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <thread>

namespace propscaler {

using TimePoint = std::chrono::system_clock::time_point;
using Duration = std::chrono::system_clock::duration;

// A duration in seconds, with its fraction (for metrics).
inline double InSeconds(Duration duration) {
  return std::chrono::duration<double>(duration).count();
}

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
  // Blocks until `ready()` or `deadline`; returns ready(). `ready` may be
  // empty: then it is a sleep until the deadline.
  virtual bool WaitUntil(TimePoint deadline,
                         const std::function<bool()>& ready) const = 0;
  // Waiters re-check their `ready`.
  virtual void Notify() const = 0;
  // Runs `body` on a new thread that takes part in this clock's time.
  virtual std::thread StartThread(std::function<void()> body) const = 0;

  bool WaitFor(Duration duration, const std::function<bool()>& ready) const {
    return WaitUntil(Now() + duration, ready);
  }
  void SleepFor(Duration duration) const { WaitFor(duration, nullptr); }
};

// The system clock. Waits re-read the time at least every second, so a step
// of the wall clock delays a deadline by at most that.
class RealClock : public Clock {
 public:
  // The clock of the process, for code that has no other.
  static const RealClock& Instance();

  TimePoint Now() const override { return std::chrono::system_clock::now(); }
  bool WaitUntil(TimePoint deadline,
                 const std::function<bool()>& ready) const override;
  void Notify() const override;
  std::thread StartThread(std::function<void()> body) const override {
    return std::thread(std::move(body));
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
};

// Virtual time for tests. It stands still while any thread that takes part
// is running, and when every one of them waits and none is ready it jumps to
// the earliest deadline and wakes that one waiter only; of waiters due at
// the same instant, the one that has waited longest goes first, and the next
// only once every thread waits again. So ties are not races: a test that
// sleeps until the instant of a loop's timer runs before the loop when it
// started waiting first. The threads that take part are the one that made
// the clock and those started by StartThread(); waiting from any other
// thread is a bug and aborts. A test whose threads never wait moves the
// clock by hand with Advance(). A thread blocked outside the clock (in
// join(), on a mutex) counts as running: join a thread only once nothing
// but its own progress is left, e.g. after a stop that its wait's `ready`
// sees, never while it waits on a deadline tied with the joiner's last.
//
// When every thread waits with no deadline and none is ready, nothing can
// ever happen: that aborts with a message instead of hanging.
class VirtualClock : public Clock {
 public:
  explicit VirtualClock(TimePoint start = TimePoint(std::chrono::hours(1000)));
  ~VirtualClock() override;
  VirtualClock(const VirtualClock&) = delete;
  VirtualClock& operator=(const VirtualClock&) = delete;

  TimePoint Now() const override;
  bool WaitUntil(TimePoint deadline,
                 const std::function<bool()>& ready) const override;
  void Notify() const override;
  std::thread StartThread(std::function<void()> body) const override;

  // Moves time forward by `by`, waking the waits it ends.
  void Advance(Duration by);

 private:
  struct Waiter {
    TimePoint deadline;
    uint64_t sequence;  // order of arrival
    const std::function<bool()>* ready;
    bool released = false;
    std::condition_variable wake;
  };
  bool ReadyLocked(const Waiter& waiter) const;
  void ReleaseLocked(Waiter* waiter) const;
  // Releases the waiters that are ready; when none is and every participant
  // waits, the first due (moving time to its deadline).
  void ProgressLocked() const;

  mutable std::mutex mutex_;
  // Written under mutex_, read without it: a wait's `ready` may read the
  // time (a lease's deadline) while the clock holds mutex_.
  mutable std::atomic<TimePoint> now_;
  mutable int participants_ = 1;  // the thread that made the clock
  mutable int waiting_ = 0;       // waiters not yet released
  mutable uint64_t arrivals_ = 0;
  mutable std::list<Waiter*> waiters_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_CLOCK_H_
