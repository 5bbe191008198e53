// A one-way stop flag that sleeping threads can wait on, so that every wait
// in the daemon ends at once on SIGTERM.
#ifndef PROPSCALER_COMMON_STOP_SIGNAL_H_
#define PROPSCALER_COMMON_STOP_SIGNAL_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace propscaler {

class StopSignal {
 public:
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
    }
    cv_.notify_all();
  }
  bool stopped() const { return stopped_.load(); }
  // For code that polls a flag (curl's progress callback).
  const std::atomic<bool>* flag() const { return &stopped_; }

  // Sleeps up to `duration`; returns true if stopped meanwhile.
  template <typename Duration>
  bool WaitFor(Duration duration) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, duration, [this] { return stopped_.load(); });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<bool> stopped_{false};
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_STOP_SIGNAL_H_
