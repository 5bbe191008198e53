#include "replicas/params_svg.h"

#include <algorithm>
#include <sstream>

#include "common/chart_scale.h"
#include "common/markup_escape.h"
#include "common/quantity_format.h"
#include "replicas/params_summary.h"

namespace propscaler {
namespace {

constexpr double kWidth = kPlanChart.width;
constexpr double kHeight = 520;
constexpr double kPlotLeft = kPlanChart.plot_left;
constexpr double kPlotRight = kPlanChart.plot_right;
constexpr double kPlotTop = kPlanChart.plot_top;
constexpr double kPlotBottom = 450;
constexpr size_t kMaxDots = 60;        // more steps than this: no dots
constexpr size_t kMaxStepLabels = 16;  // more than this: no node labels
constexpr size_t kMaxSubtitle = 130;
constexpr int64_t kLogReplicasFrom = 30;
constexpr const char* kCurveColor = kPlanChart.curve_color;

struct Chart {
  ChartScale x;
  ChartScale y;
  std::vector<double> x_ticks;
  std::vector<double> y_ticks;
};

// Hundreds of replicas on a linear axis flatten the small counts, where the
// clamps and the floor are; a log axis shows both (it cannot show 0).
bool UseLogReplicas(const std::vector<PlanRow>& curve, int64_t top) {
  if (top < kLogReplicasFrom) return false;
  for (const PlanRow& row : curve) {
    if (row.replicas < 1) return false;
  }
  return true;
}

Chart MakeChart(const PlanRange& range, const std::vector<PlanRow>& curve,
                const PlanBounds& bounds) {
  int64_t top = 1;
  for (const PlanRow& row : curve) top = std::max(top, row.replicas);
  for (const auto& b : {bounds.min, bounds.max, bounds.single_point_floor}) {
    if (b) top = std::max(top, *b);
  }
  Chart chart;
  if (UseLogReplicas(curve, top)) {
    chart.y_ticks = LogTicks(top * 1.2);
    chart.y = {1, top * 1.2, true, kPlotBottom, kPlotTop};
  } else {
    chart.y_ticks = LinearTicks(top * 1.08, 6);
    chart.y = {0, chart.y_ticks.back(), false, kPlotBottom, kPlotTop};
  }
  const bool log = range.max_nodes >= 100;
  const double nodes = static_cast<double>(range.max_nodes);
  chart.x = {log ? 1.0 : 0.0, nodes, log, kPlotLeft, kPlotRight};
  chart.x_ticks = log ? LogTicks(nodes) : LinearTicks(nodes, 10);
  if (!log) chart.x.hi = std::max(nodes, chart.x_ticks.back());
  return chart;
}

void DrawHeading(const Params& params, const PlanRange& range,
                 std::ostringstream* out) {
  std::string subtitle = SummarizeParams(params);
  if (subtitle.size() > kMaxSubtitle) {
    subtitle = subtitle.substr(0, kMaxSubtitle - 3) + "...";
  }
  *out << "<text x=\"" << kPlotLeft << "\" y=\"30\" font-size=\"17\" "
       << "font-weight=\"bold\">Replicas by cluster size (1 to "
       << range.max_nodes << " nodes of "
       << FormatCores(range.cpu_millis_per_node) << " cores)</text>\n"
       << "<text x=\"" << kPlotLeft << "\" y=\"52\" fill=\"#444\">"
       << EscapeMarkup(subtitle) << "</text>\n";
}

void DrawAxes(const Chart& chart, const PlanRange& range,
              std::ostringstream* out) {
  *out << "<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n";
  for (double v : chart.y_ticks) {
    *out << "<line x1=\"" << kPlotLeft << "\" y1=\"" << ChartNum(chart.y.Map(v))
         << "\" x2=\"" << kPlotRight << "\" y2=\"" << ChartNum(chart.y.Map(v))
         << "\"/>\n";
  }
  for (double v : chart.x_ticks) {
    *out << "<line x1=\"" << ChartNum(chart.x.Map(v)) << "\" y1=\"" << kPlotTop
         << "\" x2=\"" << ChartNum(chart.x.Map(v)) << "\" y2=\"" << kPlotBottom
         << "\"/>\n";
  }
  *out << "</g>\n<g fill=\"#333\">\n";
  for (double v : chart.y_ticks) {
    *out << "<text x=\"" << kPlotLeft - 8 << "\" y=\""
         << ChartNum(chart.y.Map(v) + 4) << "\" text-anchor=\"end\">" << v
         << "</text>\n";
  }
  for (double v : chart.x_ticks) {
    *out << "<text x=\"" << ChartNum(chart.x.Map(v)) << "\" y=\""
         << kPlotBottom + 18 << "\" text-anchor=\"middle\">" << v
         << "</text>\n";
  }
  *out << "</g>\n<path d=\"M" << kPlotLeft << " " << kPlotTop << " V"
       << kPlotBottom << " H" << kPlotRight
       << "\" fill=\"none\" stroke=\"#333\"/>\n"
       << "<text x=\"" << (kPlotLeft + kPlotRight) / 2 << "\" y=\""
       << kPlotBottom + 44 << "\" text-anchor=\"middle\">nodes ("
       << FormatCores(range.cpu_millis_per_node) << " cores each"
       << (chart.x.log ? "; logarithmic scale" : "") << ")</text>\n"
       << "<text transform=\"translate(22 " << (kPlotTop + kPlotBottom) / 2
       << ") rotate(-90)\" text-anchor=\"middle\">replicas"
       << (chart.y.log ? " (logarithmic scale)" : "") << "</text>\n";
}

struct BoundLine {
  int64_t value = 0;
  std::string label;
  const char* color = "";
};

std::vector<BoundLine> BoundLines(const PlanBounds& bounds) {
  std::vector<BoundLine> lines;
  if (bounds.max) {
    lines.push_back(
        {*bounds.max, "max " + std::to_string(*bounds.max), "#c0392b"});
  }
  if (bounds.min) {
    lines.push_back(
        {*bounds.min, "min " + std::to_string(*bounds.min), "#7d3c98"});
  }
  if (bounds.single_point_floor) {
    lines.push_back({*bounds.single_point_floor,
                     "preventSinglePointFailure floor " +
                         std::to_string(*bounds.single_point_floor),
                     "#d35400"});
  }
  return lines;
}

const char* BoundColor(PlanBound bound, const std::vector<BoundLine>& lines) {
  const std::string name = PlanBoundName(bound);
  for (const BoundLine& line : lines) {
    if (line.label.starts_with(name)) return line.color;
  }
  return kCurveColor;
}

// Dashed lines across the plot; labels of lines at the same value stack.
void DrawBoundLines(const Chart& chart, const std::vector<BoundLine>& lines,
                    std::ostringstream* out) {
  std::vector<int64_t> drawn;
  for (const BoundLine& line : lines) {
    const double y = chart.y.Map(static_cast<double>(line.value));
    const auto same = std::count(drawn.begin(), drawn.end(), line.value);
    drawn.push_back(line.value);
    const double label_y = same == 0 ? y - 5 : y + 14 * same;
    *out << "<line x1=\"" << kPlotLeft << "\" y1=\"" << ChartNum(y)
         << "\" x2=\"" << kPlotRight << "\" y2=\"" << ChartNum(y)
         << "\" stroke=\"" << line.color
         << "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
         << "<text x=\"" << kPlotRight - 4 << "\" y=\"" << ChartNum(label_y)
         << "\" text-anchor=\"end\" fill=\"" << line.color << "\">"
         << EscapeMarkup(line.label) << "</text>\n";
  }
}

void DrawLegend(const std::vector<BoundLine>& lines, std::ostringstream* out) {
  if (lines.empty()) return;
  *out << "<text x=\"" << kPlotLeft << "\" y=\"72\" fill=\"#444\" "
       << "font-size=\"11\">dashed: the clamps of these params; "
       << "shaded: the sizes where a clamp sets the count</text>\n";
}

// Stretches of sizes whose count a bound decides, drawn over the curve in
// the bound's colour up to the next size.
void DrawBoundStretches(const Chart& chart, const std::vector<PlanRow>& curve,
                        const std::vector<BoundLine>& lines,
                        std::ostringstream* out) {
  size_t i = 0;
  while (i < curve.size()) {
    size_t end = i;
    while (end + 1 < curve.size() && curve[end + 1].bound == curve[i].bound &&
           curve[end + 1].replicas == curve[i].replicas) {
      ++end;
    }
    if (curve[i].bound != PlanBound::kNone) {
      const int64_t to = curve[std::min(end + 1, curve.size() - 1)].nodes;
      const double y = chart.y.Map(static_cast<double>(curve[i].replicas));
      *out << "<line x1=\"" << ChartNum(chart.x.Map(curve[i].nodes))
           << "\" y1=\"" << ChartNum(y) << "\" x2=\""
           << ChartNum(chart.x.Map(to)) << "\" y2=\"" << ChartNum(y)
           << "\" stroke=\"" << BoundColor(curve[i].bound, lines)
           << "\" stroke-width=\"9\" stroke-opacity=\"0.35\"/>\n";
    }
    i = end + 1;
  }
}

void DrawCurve(const Chart& chart, const std::vector<PlanRow>& curve,
               std::ostringstream* out) {
  *out << "<polyline fill=\"none\" stroke=\"" << kCurveColor
       << "\" stroke-width=\"2\" points=\"";
  const std::vector<StepPoint> points = StepLinePoints(curve);
  for (size_t i = 0; i < points.size(); ++i) {
    *out << (i == 0 ? "" : " ") << ChartNum(chart.x.Map(points[i].nodes)) << ","
         << ChartNum(chart.y.Map(points[i].replicas));
  }
  *out << "\"/>\n";
}

// A dot at each step, and the node count where it happens when few.
void DrawSteps(const Chart& chart, const std::vector<PlanRow>& curve,
               std::ostringstream* out) {
  std::vector<PlanRow> steps;
  for (const PlanRow& row : curve) {
    if (row.change != 0) steps.push_back(row);
  }
  if (steps.size() > kMaxDots) return;
  *out << "<g fill=\"" << kCurveColor << "\" font-size=\"11\">\n";
  for (const PlanRow& row : steps) {
    const double x = chart.x.Map(row.nodes);
    const double y = chart.y.Map(row.replicas);
    *out << "<circle cx=\"" << ChartNum(x) << "\" cy=\"" << ChartNum(y)
         << "\" r=\"3\"/>\n";
    if (steps.size() <= kMaxStepLabels) {
      *out << "<text x=\"" << ChartNum(x + 4) << "\" y=\"" << ChartNum(y - 6)
           << "\">" << row.nodes << "</text>\n";
    }
  }
  *out << "</g>\n";
}

// The cluster as it is: a ring at its size and replicas, labelled.
void DrawNow(const Chart& chart, const StepPoint& now,
             std::ostringstream* out) {
  const double x = chart.x.Map(
      static_cast<double>(std::max<int64_t>(now.nodes, chart.x.log ? 1 : 0)));
  const double y = chart.y.Map(static_cast<double>(
      std::max<int64_t>(now.replicas, chart.y.log ? 1 : 0)));
  *out << "<g data-now-nodes=\"" << now.nodes << "\" data-now-replicas=\""
       << now.replicas << "\"><circle cx=\"" << ChartNum(x) << "\" cy=\""
       << ChartNum(y) << "\" r=\"7\" fill=\"none\" stroke=\"#cf222e\" "
       << "stroke-width=\"2.5\"/><text x=\"" << ChartNum(x + 10) << "\" y=\""
       << ChartNum(y + 18) << "\" fill=\"#cf222e\">now: " << now.nodes
       << " nodes, " << now.replicas << " replicas</text></g>\n";
}

}  // namespace

std::vector<StepPoint> StepLinePoints(const std::vector<PlanRow>& curve) {
  std::vector<StepPoint> points;
  if (curve.empty()) return points;
  points.push_back({curve.front().nodes, curve.front().replicas});
  for (size_t i = 1; i < curve.size(); ++i) {
    if (curve[i].change == 0) continue;
    points.push_back({curve[i].nodes, curve[i - 1].replicas});
    points.push_back({curve[i].nodes, curve[i].replicas});
  }
  if (curve.size() > 1 && points.back().nodes != curve.back().nodes) {
    points.push_back({curve.back().nodes, curve.back().replicas});
  }
  return points;
}

std::string PlanSvg(const Params& params, const PlanRange& range,
                    const std::vector<PlanRow>& curve,
                    const std::optional<StepPoint>& now) {
  const PlanBounds bounds = BoundsOf(params);
  const Chart chart = MakeChart(range, curve, bounds);
  const std::vector<BoundLine> lines = BoundLines(bounds);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
      << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << kWidth << " "
      << kHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>propscaler plan: " << EscapeMarkup(SummarizeParams(params))
      << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  DrawHeading(params, range, &out);
  DrawLegend(lines, &out);
  DrawAxes(chart, range, &out);
  DrawBoundLines(chart, lines, &out);
  DrawBoundStretches(chart, curve, lines, &out);
  DrawCurve(chart, curve, &out);
  DrawSteps(chart, curve, &out);
  if (now) DrawNow(chart, *now, &out);
  out << "</svg>\n";
  return out.str();
}

}  // namespace propscaler
