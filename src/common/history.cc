#include "common/history.h"

namespace propscaler {

bool History::Record(const std::string& series, TimePoint time, int64_t value) {
  auto found = series_.find(series);
  if (found == series_.end()) {
    if (series_.size() >= kMaxSeries) return false;
    found = series_.emplace(series, std::deque<HistoryPoint>()).first;
  }
  std::deque<HistoryPoint>& points = found->second;
  if (!points.empty() && points.back().value == value) return true;
  if (!points.empty() && points.back().time >= time) {
    points.back().value = value;  // two changes at one instant: the last
  } else {
    points.push_back({time, value});
  }
  if (points.size() > kMaxPoints) points.pop_front();
  Trim(time);
  return true;
}

void History::Mark(TimePoint time, std::string label) {
  if (label.size() > kMaxMarkLabel) {
    label.resize(kMaxMarkLabel - 3);
    label += "...";
  }
  marks_.push_back({time, std::move(label)});
  if (marks_.size() > kMaxMarks) marks_.pop_front();
  Trim(time);
}

void History::Trim(TimePoint now) {
  const TimePoint start = now - window_;
  for (auto& [name, points] : series_) {
    // The point in force at the start stays: the line begins there.
    while (points.size() > 1 && points[1].time <= start) points.pop_front();
  }
  while (!marks_.empty() && marks_.front().time < start) marks_.pop_front();
}

const std::deque<HistoryPoint>& History::Points(
    const std::string& series) const {
  static const std::deque<HistoryPoint> kNone;
  auto found = series_.find(series);
  return found == series_.end() ? kNone : found->second;
}

}  // namespace propscaler
