// CA's scale-down timers: a node is removed only after it has been unneeded
// for --scale-down-unneeded-time, and no node is removed within
// --scale-down-delay-after-add of a scale-up, --scale-down-delay-after-delete
// of a removal or --scale-down-delay-after-failure of a failed one. Pure:
// the caller passes the time.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SCALE_DOWN_TIMERS_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SCALE_DOWN_TIMERS_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"

namespace propscaler::nodescale {

struct ScaleDownDelays {
  Duration unneeded_time = std::chrono::minutes(10);
  Duration delay_after_add = std::chrono::minutes(10);
  Duration delay_after_delete = Duration(0);
  Duration delay_after_failure = std::chrono::minutes(3);
  // --scale-down-unready-time: the unneeded time of a node not Ready.
  Duration unready_time = std::chrono::minutes(20);
};

class ScaleDownTimers {
 public:
  explicit ScaleDownTimers(ScaleDownDelays delays) : delays_(delays) {}

  // The nodes unneeded now; nodes no longer listed stop being unneeded.
  void SetUnneeded(const std::vector<std::string>& nodes, TimePoint now);
  bool IsUnneeded(const std::string& node) const;
  // Unneeded for at least the unneeded time (the unready time for those in
  // `unready`; a node's own wait in `waits` before either), in the order
  // given.
  std::vector<std::string> RemovableNow(
      const std::vector<std::string>& nodes, TimePoint now,
      const std::set<std::string>& unready = {},
      const std::map<std::string, Duration>& waits = {}) const;
  TimePoint UnneededSince(const std::string& node) const;

  void ScaledUp(TimePoint now) { last_add_ = now; }
  void Deleted(TimePoint now) { last_delete_ = now; }
  void Failed(TimePoint now) { last_failure_ = now; }

  // Why no node may be removed now, or nullopt when removal may proceed.
  std::optional<std::string> Blocked(TimePoint now) const;

 private:
  ScaleDownDelays delays_;
  std::map<std::string, TimePoint> unneeded_since_;
  std::optional<TimePoint> last_add_;
  std::optional<TimePoint> last_delete_;
  std::optional<TimePoint> last_failure_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SCALE_DOWN_TIMERS_H_
