#include "common/chart_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace propscaler {

double ChartScale::Map(double v) const {
  const double a = log ? std::log10(lo) : lo;
  const double b = log ? std::log10(hi) : hi;
  const double t = b == a ? 0 : ((log ? std::log10(v) : v) - a) / (b - a);
  return screen_lo + t * (screen_hi - screen_lo);
}

std::string ChartNum(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", v);
  return buffer;
}

double NiceStep(double hi, int count) {
  const double raw = std::max(hi / count, 1.0);
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0}) {
    if (factor * magnitude >= raw) return factor * magnitude;
  }
  return 10 * magnitude;
}

std::vector<double> LinearTicks(double hi, int count) {
  std::vector<double> ticks;
  const double step = NiceStep(hi, count);
  for (double v = 0; v <= hi + step / 2; v += step) ticks.push_back(v);
  return ticks;
}

std::vector<double> LogTicks(double hi) {
  std::vector<double> ticks;
  for (double decade = 1; decade <= hi; decade *= 10) {
    for (double factor : {1.0, 2.0, 5.0}) {
      if (factor * decade <= hi) ticks.push_back(factor * decade);
    }
  }
  return ticks;
}

}  // namespace propscaler
