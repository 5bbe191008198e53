#include "app/plan_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/plan_output.h"
#include "common/markup_escape.h"
#include "common/quantity_format.h"
#include "replicas/params_summary.h"

namespace propscaler {
namespace {

constexpr double kWidth = 860;
constexpr double kHeight = 520;
constexpr double kPlotLeft = 70;
constexpr double kPlotRight = 830;
constexpr double kPlotTop = 90;
constexpr double kPlotBottom = 450;
constexpr size_t kMaxDots = 60;        // more steps than this: no dots
constexpr size_t kMaxStepLabels = 16;  // more than this: no node labels
constexpr size_t kMaxSubtitle = 130;
constexpr int64_t kLogReplicasFrom = 30;
constexpr char kCurveColor[] = "#1f5fa8";

// Maps data values to screen coordinates, linearly or by log10.
struct Scale {
  double lo = 0;
  double hi = 1;
  bool log = false;
  double screen_lo = 0;
  double screen_hi = 1;

  double Map(double v) const {
    const double a = log ? std::log10(lo) : lo;
    const double b = log ? std::log10(hi) : hi;
    const double t = b == a ? 0 : ((log ? std::log10(v) : v) - a) / (b - a);
    return screen_lo + t * (screen_hi - screen_lo);
  }
};

std::string Num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", v);
  return buffer;
}

// 1, 2 or 5 times a power of ten, giving about `count` intervals up to hi.
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

struct Chart {
  Scale x;
  Scale y;
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
    *out << "<line x1=\"" << kPlotLeft << "\" y1=\"" << Num(chart.y.Map(v))
         << "\" x2=\"" << kPlotRight << "\" y2=\"" << Num(chart.y.Map(v))
         << "\"/>\n";
  }
  for (double v : chart.x_ticks) {
    *out << "<line x1=\"" << Num(chart.x.Map(v)) << "\" y1=\"" << kPlotTop
         << "\" x2=\"" << Num(chart.x.Map(v)) << "\" y2=\"" << kPlotBottom
         << "\"/>\n";
  }
  *out << "</g>\n<g fill=\"#333\">\n";
  for (double v : chart.y_ticks) {
    *out << "<text x=\"" << kPlotLeft - 8 << "\" y=\""
         << Num(chart.y.Map(v) + 4) << "\" text-anchor=\"end\">" << v
         << "</text>\n";
  }
  for (double v : chart.x_ticks) {
    *out << "<text x=\"" << Num(chart.x.Map(v)) << "\" y=\"" << kPlotBottom + 18
         << "\" text-anchor=\"middle\">" << v << "</text>\n";
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
    *out << "<line x1=\"" << kPlotLeft << "\" y1=\"" << Num(y) << "\" x2=\""
         << kPlotRight << "\" y2=\"" << Num(y) << "\" stroke=\"" << line.color
         << "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
         << "<text x=\"" << kPlotRight - 4 << "\" y=\"" << Num(label_y)
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
      *out << "<line x1=\"" << Num(chart.x.Map(curve[i].nodes)) << "\" y1=\""
           << Num(y) << "\" x2=\"" << Num(chart.x.Map(to)) << "\" y2=\""
           << Num(y) << "\" stroke=\"" << BoundColor(curve[i].bound, lines)
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
    *out << (i == 0 ? "" : " ") << Num(chart.x.Map(points[i].nodes)) << ","
         << Num(chart.y.Map(points[i].replicas));
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
    *out << "<circle cx=\"" << Num(x) << "\" cy=\"" << Num(y)
         << "\" r=\"3\"/>\n";
    if (steps.size() <= kMaxStepLabels) {
      *out << "<text x=\"" << Num(x + 4) << "\" y=\"" << Num(y - 6) << "\">"
           << row.nodes << "</text>\n";
    }
  }
  *out << "</g>\n";
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
                    const std::vector<PlanRow>& curve) {
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
  out << "</svg>\n";
  return out.str();
}

namespace {

constexpr double kPanelHeight = 190;
constexpr double kPanelGap = 70;

// One resource's panel, its plot from `top` down kPanelHeight.
void DrawVerticalPanel(const VerticalPlan& plan, size_t column, double top,
                       const Scale& x, const std::vector<double>& x_ticks,
                       std::ostringstream* out) {
  const QuantityFormat format = CpvaFormatOf(plan.columns[column].resource);
  int64_t high = 1;
  for (const VerticalPlanRow& row : plan.rows) {
    high = std::max(high, row.millis[column]);
  }
  const std::vector<double> y_ticks =
      LinearTicks(static_cast<double>(high) * 1.08, 4);
  const Scale y{0, y_ticks.back(), false, top + kPanelHeight, top};
  *out << "<text x=\"" << kPlotLeft << "\" y=\"" << Num(top - 10)
       << "\" font-weight=\"bold\">"
       << EscapeMarkup(plan.columns[column].ToString()) << "</text>\n"
       << "<g stroke=\"#e3e3e3\">\n";
  for (double v : y_ticks) {
    *out << "<line x1=\"" << kPlotLeft << "\" y1=\"" << Num(y.Map(v))
         << "\" x2=\"" << kPlotRight << "\" y2=\"" << Num(y.Map(v)) << "\"/>\n";
  }
  *out << "</g>\n<g fill=\"#333\" font-size=\"11\">\n";
  for (double v : y_ticks) {
    *out << "<text x=\"" << kPlotLeft - 6 << "\" y=\"" << Num(y.Map(v) + 4)
         << "\" text-anchor=\"end\">"
         << FormatMilliQuantity(static_cast<int64_t>(v), format) << "</text>\n";
  }
  for (double v : x_ticks) {
    *out << "<text x=\"" << Num(x.Map(v)) << "\" y=\""
         << Num(top + kPanelHeight + 16) << "\" text-anchor=\"middle\">" << v
         << "</text>\n";
  }
  *out
      << "</g>\n<path d=\"M" << kPlotLeft << " " << Num(top) << " V"
      << Num(top + kPanelHeight) << " H" << kPlotRight
      << "\" fill=\"none\" stroke=\"#333\"/>\n<polyline fill=\"none\" stroke=\""
      << kCurveColor << "\" stroke-width=\"2\" points=\"";
  int64_t previous = plan.rows.front().millis[column];
  *out << Num(x.Map(1)) << "," << Num(y.Map(static_cast<double>(previous)));
  for (const VerticalPlanRow& row : plan.rows) {
    const int64_t value = row.millis[column];
    if (value == previous) continue;
    *out << " " << Num(x.Map(row.nodes)) << ","
         << Num(y.Map(static_cast<double>(previous))) << " "
         << Num(x.Map(row.nodes)) << ","
         << Num(y.Map(static_cast<double>(value)));
    previous = value;
  }
  *out << " " << Num(x.Map(plan.rows.back().nodes)) << ","
       << Num(y.Map(static_cast<double>(previous))) << "\"/>\n";
}

}  // namespace

std::string VerticalPlanSvg(const VerticalConfig& config,
                            const VerticalPlan& plan) {
  const double nodes = static_cast<double>(plan.rows.size());
  const bool log = nodes >= 100;
  Scale x{log ? 1.0 : 0.0, std::max(nodes, 1.0), log, kPlotLeft, kPlotRight};
  std::vector<double> x_ticks = log ? LogTicks(nodes) : LinearTicks(nodes, 10);
  if (!log && !x_ticks.empty()) x.hi = std::max(nodes, x_ticks.back());
  const double height =
      kPlotTop + plan.columns.size() * (kPanelHeight + kPanelGap) + 10;
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
      << "\" height=\"" << Num(height) << "\" viewBox=\"0 0 " << kWidth << " "
      << Num(height) << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>propscaler plan: "
      << EscapeMarkup(DescribeVerticalConfig(config))
      << "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kPlotLeft << "\" y=\"30\" font-size=\"17\" "
      << "font-weight=\"bold\">Container resources by cluster size (1 to "
      << plan.rows.size() << " nodes of "
      << FormatCores(plan.cpu_millis_per_node) << " cores"
      << (log ? "; nodes on a logarithmic scale" : "") << ")</text>\n";
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    DrawVerticalPanel(plan, c, kPlotTop + c * (kPanelHeight + kPanelGap), x,
                      x_ticks, &out);
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace propscaler
