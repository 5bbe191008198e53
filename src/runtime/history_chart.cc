#include "runtime/history_chart.h"

#include <algorithm>
#include <sstream>

#include "common/chart_scale.h"
#include "common/markup_escape.h"
#include "common/utc_time.h"

namespace propscaler::runtime {
namespace {

constexpr double kWidth = 820;
constexpr double kHeight = 230;
constexpr double kLeft = 60;
constexpr double kRight = 600;
constexpr double kTop = 30;
constexpr double kBottom = 200;
constexpr const char* kPalette[] = {"#1f5fa8", "#d35400", "#1a7f37", "#8250df",
                                    "#cf222e", "#6e7781", "#bf8700", "#0a7ea4"};
constexpr Duration kShortest = std::chrono::minutes(1);

const char* ColorOf(size_t line) {
  return kPalette[line % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

std::string LabelOf(const ChartLine& line) {
  return line.label.empty() ? line.series : line.label;
}

// A tick every 10, 15 or 30 seconds, 1, 2, 5, 10, 15 or 30 minutes or 1,
// 2, 3, 6 or 12 hours: the shortest that gives at most six.
Duration TimeStep(Duration span) {
  using std::chrono::hours;
  using std::chrono::minutes;
  using std::chrono::seconds;
  for (Duration step :
       {Duration(seconds(10)), Duration(seconds(15)), Duration(seconds(30)),
        Duration(minutes(1)), Duration(minutes(2)), Duration(minutes(5)),
        Duration(minutes(10)), Duration(minutes(15)), Duration(minutes(30)),
        Duration(hours(1)), Duration(hours(2)), Duration(hours(3)),
        Duration(hours(6))}) {
    if (span / step <= 6) return step;
  }
  return hours(12);
}

struct Frame {
  TimePoint start;
  TimePoint now;
  int64_t top = 1;
  ChartScale x;
  ChartScale y;
};

double SecondsOf(TimePoint t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

Frame FrameOf(const History& history, const HistoryChart& chart,
              TimePoint now) {
  Frame frame{.start = now - kShortest, .now = now};
  for (const ChartLine& line : chart.lines) {
    for (const HistoryPoint& point : history.Points(line.series)) {
      frame.start = std::min(frame.start, point.time);
      frame.top = std::max(frame.top, point.value);
    }
  }
  frame.start = std::max(frame.start, now - history.window());
  const std::vector<double> ticks = LinearTicks(frame.top * 1.1, 4);
  frame.x = {SecondsOf(frame.start), SecondsOf(now), false, kLeft, kRight};
  frame.y = {0, std::max(ticks.back(), frame.top * 1.1), false, kBottom, kTop};
  return frame;
}

void DrawAxes(const Frame& frame, std::ostringstream& out) {
  out << "<g stroke=\"#e3e3e3\">";
  const std::vector<double> ticks = LinearTicks(frame.top * 1.1, 4);
  for (double v : ticks) {
    out << "<line x1=\"" << kLeft << "\" y1=\"" << ChartNum(frame.y.Map(v))
        << "\" x2=\"" << kRight << "\" y2=\"" << ChartNum(frame.y.Map(v))
        << "\"/>";
  }
  out << "</g><g fill=\"#57606a\" font-size=\"11\">";
  for (double v : ticks) {
    out << "<text x=\"" << kLeft - 6 << "\" y=\""
        << ChartNum(frame.y.Map(v) + 4) << "\" text-anchor=\"end\">" << v
        << "</text>";
  }
  const Duration step = TimeStep(frame.now - frame.start);
  const auto since_epoch = frame.start.time_since_epoch();
  TimePoint tick{since_epoch - since_epoch % step + step};
  for (; tick <= frame.now; tick += step) {
    out << "<text x=\"" << ChartNum(frame.x.Map(SecondsOf(tick))) << "\" y=\""
        << kBottom + 16 << "\" text-anchor=\"middle\">"
        << FormatUtc(tick,
                     step < std::chrono::minutes(1) ? "%H:%M:%S" : "%H:%M")
        << "</text>";
  }
  out << "</g><path d=\"M" << kLeft << " " << kTop << " V" << kBottom << " H"
      << kRight << "\" fill=\"none\" stroke=\"#57606a\"/>";
}

// The step line: from the point in force at the start (or the first) to
// now.
// Every other line is dashed, so that two lines with the same values both
// show.
void DrawLine(const Frame& frame, const std::deque<HistoryPoint>& points,
              const std::string& label, size_t index, std::ostringstream& out) {
  out << "<polyline fill=\"none\" stroke=\"" << ColorOf(index)
      << "\" stroke-width=\"2\""
      << (index % 2 == 1 ? " stroke-dasharray=\"7 4\"" : "")
      << " data-series=\"" << EscapeMarkup(label) << "\" data-values=\"";
  for (size_t i = 0; i < points.size(); ++i) {
    out << (i == 0 ? "" : " ") << points[i].value;
  }
  out << "\" points=\"";
  for (size_t i = 0; i < points.size(); ++i) {
    const double x =
        frame.x.Map(SecondsOf(std::max(points[i].time, frame.start)));
    const double y = frame.y.Map(static_cast<double>(points[i].value));
    if (i > 0) {
      out << " " << ChartNum(x) << ","
          << ChartNum(frame.y.Map(static_cast<double>(points[i - 1].value)))
          << " ";
    }
    out << ChartNum(x) << "," << ChartNum(y);
  }
  out << " " << ChartNum(kRight) << ","
      << ChartNum(frame.y.Map(static_cast<double>(points.back().value)))
      << "\"><title>" << EscapeMarkup(label) << ": " << points.back().value
      << "</title></polyline>";
}

void DrawLegend(const History& history, const HistoryChart& chart,
                std::ostringstream& out) {
  double y = kTop + 8;
  for (size_t i = 0; i < chart.lines.size(); ++i) {
    const std::deque<HistoryPoint>& points =
        history.Points(chart.lines[i].series);
    if (points.empty()) continue;
    out << "<rect x=\"" << kRight + 14 << "\" y=\"" << ChartNum(y - 9)
        << "\" width=\"12\" height=\"4\" fill=\"" << ColorOf(i)
        << "\"/><text x=\"" << kRight + 32 << "\" y=\"" << ChartNum(y) << "\">"
        << EscapeMarkup(LabelOf(chart.lines[i])) << ": <tspan "
        << "font-weight=\"bold\">" << points.back().value << "</tspan></text>";
    y += 18;
  }
}

void DrawMarks(const History& history, const Frame& frame,
               std::ostringstream& out) {
  out << "<g stroke=\"#8250df\" stroke-dasharray=\"3 3\">";
  for (const HistoryMark& mark : history.marks()) {
    if (mark.time < frame.start) continue;
    const std::string x = ChartNum(frame.x.Map(SecondsOf(mark.time)));
    out << "<line x1=\"" << x << "\" y1=\"" << kTop << "\" x2=\"" << x
        << "\" y2=\"" << kBottom << "\" data-mark=\""
        << EscapeMarkup(mark.label) << "\"><title>"
        << FormatUtc(mark.time, "%H:%M:%S") << " " << EscapeMarkup(mark.label)
        << "</title></line>";
  }
  out << "</g>";
}

bool HasPoints(const History& history, const HistoryChart& chart) {
  return std::any_of(chart.lines.begin(), chart.lines.end(),
                     [&](const ChartLine& line) {
                       return !history.Points(line.series).empty();
                     });
}

}  // namespace

std::string HistoryChartSvg(const History& history, const HistoryChart& chart,
                            TimePoint now) {
  std::ostringstream out;
  if (!HasPoints(history, chart)) {
    out << "<p>" << EscapeMarkup(chart.title) << ": nothing recorded yet</p>";
    return out.str();
  }
  const Frame frame = FrameOf(history, chart, now);
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=chart width=\""
      << kWidth << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << kWidth
      << " " << kHeight << "\" font-family=\"sans-serif\" font-size=\"12\" "
      << "role=\"img\" aria-label=\"" << EscapeMarkup(chart.title)
      << "\"><title>" << EscapeMarkup(chart.title) << "</title><text x=\""
      << kLeft << "\" y=\"18\" font-weight=\"bold\">"
      << EscapeMarkup(chart.title) << " (UTC)</text>";
  DrawAxes(frame, out);
  if (chart.marks) DrawMarks(history, frame, out);
  for (size_t i = 0; i < chart.lines.size(); ++i) {
    const std::deque<HistoryPoint>& points =
        history.Points(chart.lines[i].series);
    if (!points.empty()) {
      DrawLine(frame, points, LabelOf(chart.lines[i]), i, out);
    }
  }
  DrawLegend(history, chart, out);
  out << "</svg>";
  return out.str();
}

}  // namespace propscaler::runtime
