// What /status draws over time: a few named series of whole numbers (one
// point per change: a value that stays the same adds nothing) and marked
// moments (a scale-up, a removal). Bounded twice: the last `window` only
// (the point in force at the window's start is kept, so a line starts
// there), and at most kMaxSeries series of kMaxPoints points and kMaxMarks
// marks, the oldest dropped first. Each point is 16 bytes: the whole
// history stays under 300 KiB. Plain data: the caller gives the time.
#ifndef PROPSCALER_COMMON_HISTORY_H_
#define PROPSCALER_COMMON_HISTORY_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>

#include "common/clock.h"

namespace propscaler {

struct HistoryPoint {
  TimePoint time;
  int64_t value = 0;
  bool operator==(const HistoryPoint&) const = default;
};

struct HistoryMark {
  TimePoint time;
  std::string label;  // "scale-up small +3"
  bool operator==(const HistoryMark&) const = default;
};

class History {
 public:
  static constexpr size_t kMaxSeries = 24;
  static constexpr size_t kMaxPoints = 600;
  static constexpr size_t kMaxMarks = 100;
  static constexpr size_t kMaxMarkLabel = 80;

  explicit History(Duration window = std::chrono::hours(24))
      : window_(window) {}

  // `value` of `series` from `time` on. A new series past kMaxSeries is
  // not kept; false then.
  bool Record(const std::string& series, TimePoint time, int64_t value);
  void Mark(TimePoint time, std::string label);
  // Drops what lies before `now` - window.
  void Trim(TimePoint now);

  // The series' points, oldest first; empty when it has none.
  const std::deque<HistoryPoint>& Points(const std::string& series) const;
  const std::deque<HistoryMark>& marks() const { return marks_; }
  Duration window() const { return window_; }
  bool empty() const { return series_.empty() && marks_.empty(); }

 private:
  Duration window_;
  std::map<std::string, std::deque<HistoryPoint>> series_;
  std::deque<HistoryMark> marks_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_HISTORY_H_
