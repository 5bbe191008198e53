// Scale-down smoothing, the params' optional "scaleDown" policy: replicas go
// up at once; they go down only to the highest count computed within the
// stabilization window (as HPA's scale-down stabilization does), and by at
// most maxStepPercent of the current replicas (rounded up, at least one) per
// period, so they always converge.
//
// Pure: the caller passes the time and keeps one ScaleDownHistory per target
// between calls. With an empty history (--once) the window holds only the
// computed count, so only the step limit applies.
#ifndef PROPSCALER_REPLICAS_SCALE_DOWN_SMOOTHING_H_
#define PROPSCALER_REPLICAS_SCALE_DOWN_SMOOTHING_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "common/clock.h"
#include "replicas/params.h"

namespace propscaler {

// What smoothing remembers about one target.
struct ScaleDownHistory {
  struct Sample {
    TimePoint time;
    int64_t computed = 0;
    bool operator==(const Sample&) const = default;
  };
  // Computed counts within the window that can still be its highest: oldest
  // first, each higher than every later one, so bounded by the number of
  // distinct counts and the front is the highest.
  std::deque<Sample> samples;
  // When the last scale-down step was applied.
  std::optional<TimePoint> last_step_time;

  bool operator==(const ScaleDownHistory&) const = default;
};

struct SmoothedReplicas {
  int64_t replicas = 0;      // to apply
  ScaleDownHistory history;  // to pass to the next call for this target
  // Why `replicas` is above the computed count, for the log, e.g. "holding 5
  // (the highest in the last 600s) instead of 3"; empty when it is not. The
  // same inputs give the same text, so callers can log it once per change.
  std::string held_back;
};

// `current` is the target's spec.replicas, `computed` what the arithmetic
// gives now. Without a policy, returns `computed` and the history unchanged.
SmoothedReplicas SmoothScaleDown(const std::optional<ScaleDownPolicy>& policy,
                                 ScaleDownHistory history, TimePoint now,
                                 int64_t current, int64_t computed);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_SCALE_DOWN_SMOOTHING_H_
