#include "replicas/scale_down_smoothing.h"

#include <algorithm>
#include <utility>

namespace propscaler {
namespace {

std::string Seconds(int64_t seconds) { return std::to_string(seconds) + "s"; }

std::string HeldByWindow(int64_t replicas, int64_t computed, int64_t highest,
                         const ScaleDownPolicy& policy) {
  const std::string window =
      "the last " + Seconds(policy.stabilization_seconds);
  const std::string why =
      highest == replicas
          ? "the highest in " + window
          : "below the highest in " + window + ", " + std::to_string(highest);
  return "holding " + std::to_string(replicas) + " (" + why + ") instead of " +
         std::to_string(computed);
}

std::string HeldByPeriod(int64_t current, int64_t computed,
                         const ScaleDownPolicy& policy) {
  return "holding " + std::to_string(current) + " instead of " +
         std::to_string(computed) + " (one step down per " +
         Seconds(policy.period_seconds) + ")";
}

std::string HeldByStep(int64_t current, int64_t replicas, int64_t computed,
                       const ScaleDownPolicy& policy) {
  return "stepping down to " + std::to_string(replicas) + " instead of " +
         std::to_string(computed) + " (at most " +
         std::to_string(policy.max_step_percent) + "% of " +
         std::to_string(current) + " per " + Seconds(policy.period_seconds) +
         ")";
}

// Adds `computed` and drops what can no longer be the window's highest: the
// older samples not above it, and those that left the window.
void Record(std::chrono::seconds window, TimePoint now, int64_t computed,
            std::deque<ScaleDownHistory::Sample>* samples) {
  while (!samples->empty() && samples->back().computed <= computed) {
    samples->pop_back();
  }
  samples->push_back({now, computed});
  while (samples->front().time < now - window) samples->pop_front();
}

}  // namespace

SmoothedReplicas SmoothScaleDown(const std::optional<ScaleDownPolicy>& policy,
                                 ScaleDownHistory history, TimePoint now,
                                 int64_t current, int64_t computed) {
  if (!policy.has_value()) return {computed, std::move(history), ""};
  Record(std::chrono::seconds(policy->stabilization_seconds), now, computed,
         &history.samples);
  const int64_t highest = history.samples.front().computed;
  // Up to `computed` at once; down no lower than the window's highest.
  const int64_t target = std::clamp(current, computed, highest);
  if (target >= current) {
    std::string note = target > computed
                           ? HeldByWindow(target, computed, highest, *policy)
                           : "";
    return {target, std::move(history), std::move(note)};
  }
  const auto since_step = history.last_step_time.has_value()
                              ? now - *history.last_step_time
                              : TimePoint::duration::max();
  if (since_step < std::chrono::seconds(policy->period_seconds)) {
    return {current, std::move(history),
            HeldByPeriod(current, computed, *policy)};
  }
  // Rounded up, so every step removes at least one replica.
  const int64_t max_step = (current * policy->max_step_percent + 99) / 100;
  const int64_t replicas = std::max(target, current - max_step);
  history.last_step_time = now;
  std::string note;
  if (replicas > target) {
    note = HeldByStep(current, replicas, computed, *policy);
  } else if (replicas > computed) {
    note = HeldByWindow(replicas, computed, highest, *policy);
  }
  return {replicas, std::move(history), std::move(note)};
}

}  // namespace propscaler
