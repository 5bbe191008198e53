// A standard five-field cron schedule (minute hour day-of-month month
// day-of-week, names like JAN and SUN, ranges, steps, lists, the @yearly
// @monthly @weekly @daily @hourly macros), always in UTC, as Karpenter's
// disruption budgets read it. When both day fields are restricted a day
// matching either counts, as in cron. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_CRON_SCHEDULE_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_CRON_SCHEDULE_H_

#include <bitset>
#include <optional>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"

namespace propscaler::nodescale {

class CronSchedule {
 public:
  // Errors quote the schedule and say which field is wrong, e.g.
  // "schedule \"0 0 * * tue-mon\": day of week: beginning of range (2)
  // beyond end of range (1)".
  static Result<CronSchedule> Parse(std::string_view text);

  // The latest minute at or before `t` that the schedule hits; nullopt when
  // it hits none in the five years before.
  std::optional<TimePoint> LastHitAtOrBefore(TimePoint t) const;

  // Whether a hit falls in (now - duration, now]: a budget with this
  // schedule is active.
  bool ActiveAt(TimePoint now, Duration duration) const;

 private:
  bool DayMatches(int day_of_month, int month, int day_of_week) const;

  std::bitset<60> minutes_;
  std::bitset<24> hours_;
  std::bitset<32> days_;      // 1..31
  std::bitset<13> months_;    // 1..12
  std::bitset<7> weekdays_;   // 0 = Sunday
  bool any_day_ = false;      // the day-of-month field was * or ?
  bool any_weekday_ = false;  // the day-of-week field was * or ?
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_CRON_SCHEDULE_H_
