// How a process's resources move over a long run: samples of a value in
// time, and its least-squares slope per hour as a share of where the fit
// starts (1% an hour is a leak over a month). Pure: samples in, figures
// out.
#ifndef PROPSCALER_BENCH_HARNESS_RESOURCE_TREND_H_
#define PROPSCALER_BENCH_HARNESS_RESOURCE_TREND_H_

#include <vector>

namespace propscaler::bench {

struct TrendSample {
  double seconds = 0;  // since the run started
  double value = 0;
};

struct Trend {
  int samples = 0;              // in the fit
  double start_value = 0;       // the fitted line at the fit's first sample
  double per_hour = 0;          // slope, value units an hour
  double percent_per_hour = 0;  // per_hour against start_value
};

// The trend of the samples taken at or after `from_seconds` (the warm-up
// left out); zero samples when fewer than two remain.
Trend FitTrend(const std::vector<TrendSample>& samples, double from_seconds);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_RESOURCE_TREND_H_
