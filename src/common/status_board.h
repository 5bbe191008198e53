// Guards a status (what a mode shows on /status) written by its loop and
// read by the HTTP server's threads. Thread-safe.
#ifndef PROPSCALER_COMMON_STATUS_BOARD_H_
#define PROPSCALER_COMMON_STATUS_BOARD_H_

#include <functional>
#include <mutex>

namespace propscaler {

template <typename T>
class StatusBoard {
 public:
  void Update(const std::function<void(T&)>& change) {
    std::lock_guard<std::mutex> lock(mutex_);
    change(status_);
  }
  T Snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }

 private:
  mutable std::mutex mutex_;
  T status_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_STATUS_BOARD_H_
