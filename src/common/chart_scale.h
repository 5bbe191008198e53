// The arithmetic of the SVG charts (propscaler plan --format=svg, the
// /status pictures): a data range mapped onto screen coordinates, linearly
// or by log10, round tick values, and coordinates written to one decimal.
// Pure.
#ifndef PROPSCALER_COMMON_CHART_SCALE_H_
#define PROPSCALER_COMMON_CHART_SCALE_H_

#include <string>
#include <vector>

namespace propscaler {

struct ChartScale {
  double lo = 0;
  double hi = 1;
  bool log = false;
  double screen_lo = 0;
  double screen_hi = 1;

  double Map(double v) const;
};

// "12.5": a coordinate as an SVG attribute holds it.
std::string ChartNum(double v);

// 1, 2 or 5 times a power of ten, giving about `count` intervals up to hi.
double NiceStep(double hi, int count);
// 0, step, 2 step, ... up to hi (and one past it when hi is not a tick).
std::vector<double> LinearTicks(double hi, int count);
// 1, 2, 5, 10, 20, 50, ... up to hi.
std::vector<double> LogTicks(double hi);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_CHART_SCALE_H_
