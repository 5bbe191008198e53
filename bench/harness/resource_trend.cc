#include "harness/resource_trend.h"

namespace propscaler::bench {

Trend FitTrend(const std::vector<TrendSample>& samples, double from_seconds) {
  double n = 0, sum_t = 0, sum_v = 0, sum_tt = 0, sum_tv = 0;
  double first_t = 0;
  for (const TrendSample& s : samples) {
    if (s.seconds < from_seconds) continue;
    if (n == 0) first_t = s.seconds;
    n += 1;
    sum_t += s.seconds;
    sum_v += s.value;
    sum_tt += s.seconds * s.seconds;
    sum_tv += s.seconds * s.value;
  }
  Trend trend;
  trend.samples = static_cast<int>(n);
  const double denominator = n * sum_tt - sum_t * sum_t;
  if (n < 2 || denominator == 0) return Trend{};
  const double slope = (n * sum_tv - sum_t * sum_v) / denominator;
  const double intercept = (sum_v - slope * sum_t) / n;
  trend.start_value = intercept + slope * first_t;
  trend.per_hour = slope * 3600;
  trend.percent_per_hour =
      trend.start_value != 0 ? 100 * trend.per_hour / trend.start_value : 0;
  return trend;
}

}  // namespace propscaler::bench
