// Capped exponential backoff with jitter, for reconnects and retries.
// Deterministic for a given seed, so tests can check the sequence.
#ifndef PROPSCALER_COMMON_BACKOFF_H_
#define PROPSCALER_COMMON_BACKOFF_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>

namespace propscaler {

class Backoff {
 public:
  using Duration = std::chrono::milliseconds;

  Backoff(Duration initial, Duration max, double jitter = 0.5,
          uint32_t seed = std::random_device{}())
      : initial_(initial), max_(max), jitter_(jitter), random_(seed) {}

  // The next wait: initial * 2^attempts capped at max, then stretched by a
  // random factor in [1, 1 + jitter] and capped again.
  Duration Next() {
    const int64_t base = std::min<int64_t>(
        max_.count(), initial_.count() << std::min(attempts_, 30));
    ++attempts_;
    std::uniform_real_distribution<double> spread(1.0, 1.0 + jitter_);
    const auto jittered = static_cast<int64_t>(base * spread(random_));
    return Duration(std::min<int64_t>(jittered, max_.count()));
  }

  void Reset() { attempts_ = 0; }
  int attempts() const { return attempts_; }

 private:
  Duration initial_;
  Duration max_;
  double jitter_;
  std::mt19937 random_;
  int attempts_ = 0;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_BACKOFF_H_
