// A picture of a History (common/history.h) for the /status pages: an SVG
// to inline in the page, readable without script. Each line is a step line
// of one series from its first point (at the chart's left edge when older)
// to now; the time axis is UTC, from the oldest point shown (at least a
// minute back, at most the history's window) to now; the value axis from
// 0; a legend gives each line's value now; marks (scale-ups, removals) are
// dashed vertical lines, their label on hover and in a list under the
// chart. Each line carries what it draws (data-series, data-values) so a
// test can check the picture against the process's numbers. Pure.
#ifndef PROPSCALER_RUNTIME_HISTORY_CHART_H_
#define PROPSCALER_RUNTIME_HISTORY_CHART_H_

#include <string>
#include <vector>

#include "common/clock.h"
#include "common/history.h"

namespace propscaler::runtime {

struct ChartLine {
  std::string series;  // its name in the History
  std::string label;   // in the legend; the series' name when empty
};

struct HistoryChart {
  std::string title;
  std::vector<ChartLine> lines;  // drawn in the palette's colours, in order
  bool marks = false;            // draw the History's marks
};

// The <svg> element, or a line saying nothing was recorded yet when no
// line has a point.
std::string HistoryChartSvg(const History& history, const HistoryChart& chart,
                            TimePoint now);

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_HISTORY_CHART_H_
