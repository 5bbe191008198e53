#include "nodescale/plan/disruption/cron_schedule.h"

#include <array>
#include <charconv>
#include <chrono>
#include <string>
#include <vector>

#include "common/split.h"

namespace propscaler::nodescale {
namespace {

struct Field {
  const char* name;
  int min;
  int max;
  std::vector<std::string_view> names;  // names[i] stands for min + i
};

const std::array<Field, 5>& Fields() {
  static const std::array<Field, 5> fields = {{
      {"minute", 0, 59, {}},
      {"hour", 0, 23, {}},
      {"day of month", 1, 31, {}},
      {"month",
       1,
       12,
       {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
        "nov", "dec"}},
      {"day of week", 0, 6, {"sun", "mon", "tue", "wed", "thu", "fri", "sat"}},
  }};
  return fields;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Result<int> ParseValue(std::string_view text, const Field& field) {
  const std::string lower = Lower(text);
  for (size_t i = 0; i < field.names.size(); ++i) {
    if (lower == field.names[i]) return field.min + static_cast<int>(i);
  }
  int value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() ||
      end != text.data() + text.size()) {
    return Status::Invalid("\"" + std::string(text) + "\" is not a number");
  }
  return value;
}

// One comma-separated part: *, ?, N, N-M, each with an optional /step.
// Sets the bits of `out` (indexed by value) and whether it was a bare star.
Status ParseRange(std::string_view text, const Field& field,
                  std::vector<bool>* out, bool* star) {
  const std::vector<std::string_view> range_step = Split(text, '/');
  if (range_step.size() > 2) {
    return Status::Invalid("\"" + std::string(text) +
                           "\" has too many slashes");
  }
  const std::vector<std::string_view> bounds = Split(range_step[0], '-');
  int start = 0;
  int end = 0;
  bool is_star = false;
  if (range_step[0] == "*" || range_step[0] == "?") {
    start = field.min;
    end = field.max;
    is_star = true;
  } else if (bounds.size() <= 2) {
    Result<int> first = ParseValue(bounds[0], field);
    if (!first.ok()) return first.status();
    start = end = *first;
    if (bounds.size() == 2) {
      Result<int> last = ParseValue(bounds[1], field);
      if (!last.ok()) return last.status();
      end = *last;
    }
  } else {
    return Status::Invalid("\"" + std::string(text) +
                           "\" has too many hyphens");
  }
  int step = 1;
  if (range_step.size() == 2) {
    Result<int> parsed = ParseValue(range_step[1], field);
    if (!parsed.ok()) return parsed.status();
    step = *parsed;
    if (step <= 0) {
      return Status::Invalid("step of range should be a positive number");
    }
    if (bounds.size() == 1 && !is_star) end = field.max;
    if (step > 1) is_star = false;
  }
  if (start < field.min) {
    return Status::Invalid("beginning of range (" + std::to_string(start) +
                           ") below minimum (" + std::to_string(field.min) +
                           ")");
  }
  if (end > field.max) {
    return Status::Invalid("end of range (" + std::to_string(end) +
                           ") above maximum (" + std::to_string(field.max) +
                           ")");
  }
  if (start > end) {
    return Status::Invalid("beginning of range (" + std::to_string(start) +
                           ") beyond end of range (" + std::to_string(end) +
                           ")");
  }
  for (int v = start; v <= end; v += step) (*out)[v] = true;
  *star = *star || is_star;
  return Status::Ok();
}

std::string_view ExpandMacro(std::string_view text) {
  if (text == "@yearly" || text == "@annually") return "0 0 1 1 *";
  if (text == "@monthly") return "0 0 1 * *";
  if (text == "@weekly") return "0 0 * * 0";
  if (text == "@daily" || text == "@midnight") return "0 0 * * *";
  if (text == "@hourly") return "0 * * * *";
  return text;
}

template <size_t N>
void CopyBits(const std::vector<bool>& values, std::bitset<N>* out) {
  for (size_t i = 0; i < N && i < values.size(); ++i) (*out)[i] = values[i];
}

}  // namespace

Result<CronSchedule> CronSchedule::Parse(std::string_view text) {
  const std::string quoted = "schedule \"" + std::string(text) + "\": ";
  const std::string_view expanded = ExpandMacro(text);
  if (!expanded.empty() && expanded[0] == '@') {
    return Status::Invalid(quoted +
                           "unknown macro (use @yearly, @monthly, "
                           "@weekly, @daily or @hourly)");
  }
  std::vector<std::string_view> fields;
  for (std::string_view part : Split(expanded, ' ')) {
    if (!part.empty()) fields.push_back(part);
  }
  if (fields.size() != 5) {
    return Status::Invalid(quoted +
                           "expected 5 fields (minute hour "
                           "day-of-month month day-of-week), got " +
                           std::to_string(fields.size()));
  }
  CronSchedule schedule;
  std::array<std::vector<bool>, 5> bits;
  std::array<bool, 5> star{};
  for (size_t i = 0; i < 5; ++i) {
    const Field& field = Fields()[i];
    bits[i].assign(static_cast<size_t>(field.max) + 1, false);
    for (std::string_view part : Split(fields[i], ',')) {
      if (Status s = ParseRange(part, field, &bits[i], &star[i]); !s.ok()) {
        return Status::Invalid(quoted + field.name + ": " + s.message());
      }
    }
  }
  CopyBits(bits[0], &schedule.minutes_);
  CopyBits(bits[1], &schedule.hours_);
  CopyBits(bits[2], &schedule.days_);
  CopyBits(bits[3], &schedule.months_);
  CopyBits(bits[4], &schedule.weekdays_);
  schedule.any_day_ = star[2];
  schedule.any_weekday_ = star[4];
  return schedule;
}

bool CronSchedule::DayMatches(int day_of_month, int month,
                              int day_of_week) const {
  if (!months_[month]) return false;
  const bool day = days_[day_of_month];
  const bool weekday = weekdays_[day_of_week];
  if (any_day_ || any_weekday_) return day && weekday;
  return day || weekday;
}

std::optional<TimePoint> CronSchedule::LastHitAtOrBefore(TimePoint t) const {
  using namespace std::chrono;
  const sys_days today = floor<days>(t);
  const auto since_midnight = duration_cast<minutes>(t - today);
  constexpr int kDaysSearched = 5 * 366;
  for (int back = 0; back <= kDaysSearched; ++back) {
    const sys_days day = today - days(back);
    const year_month_day date(day);
    const int weekday =
        static_cast<int>(std::chrono::weekday(day).c_encoding());
    if (!DayMatches(static_cast<int>(static_cast<unsigned>(date.day())),
                    static_cast<int>(static_cast<unsigned>(date.month())),
                    weekday)) {
      continue;
    }
    const int last_minute =
        back == 0 ? static_cast<int>(since_midnight.count()) : 24 * 60 - 1;
    for (int hour = last_minute / 60; hour >= 0; --hour) {
      if (!hours_[hour]) continue;
      const int top = hour == last_minute / 60 ? last_minute % 60 : 59;
      for (int minute = top; minute >= 0; --minute) {
        if (minutes_[minute]) return day + hours(hour) + minutes(minute);
      }
    }
  }
  return std::nullopt;
}

bool CronSchedule::ActiveAt(TimePoint now, Duration duration) const {
  const std::optional<TimePoint> hit = LastHitAtOrBefore(now);
  return hit.has_value() && *hit > now - duration;
}

}  // namespace propscaler::nodescale
