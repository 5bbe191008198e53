#include "app/plan_svg.h"

#include <algorithm>
#include <sstream>

#include "common/chart_scale.h"
#include "common/markup_escape.h"
#include "common/quantity_format.h"
#include "replicas/params_svg.h"

namespace propscaler {
namespace {

constexpr double kWidth = kPlanChart.width;
constexpr double kPlotLeft = kPlanChart.plot_left;
constexpr double kPlotRight = kPlanChart.plot_right;
constexpr double kPlotTop = kPlanChart.plot_top;
constexpr const char* kCurveColor = kPlanChart.curve_color;

constexpr double kPanelHeight = 190;
constexpr double kPanelGap = 70;

// One resource's panel, its plot from `top` down kPanelHeight.
void DrawVerticalPanel(const VerticalPlan& plan, size_t column, double top,
                       const ChartScale& x, const std::vector<double>& x_ticks,
                       std::ostringstream* out) {
  const QuantityFormat format = CpvaFormatOf(plan.columns[column].resource);
  int64_t high = 1;
  for (const VerticalPlanRow& row : plan.rows) {
    high = std::max(high, row.millis[column]);
  }
  const std::vector<double> y_ticks =
      LinearTicks(static_cast<double>(high) * 1.08, 4);
  const ChartScale y{0, y_ticks.back(), false, top + kPanelHeight, top};
  *out << "<text x=\"" << kPlotLeft << "\" y=\"" << ChartNum(top - 10)
       << "\" font-weight=\"bold\">"
       << EscapeMarkup(plan.columns[column].ToString()) << "</text>\n"
       << "<g stroke=\"#e3e3e3\">\n";
  for (double v : y_ticks) {
    *out << "<line x1=\"" << kPlotLeft << "\" y1=\"" << ChartNum(y.Map(v))
         << "\" x2=\"" << kPlotRight << "\" y2=\"" << ChartNum(y.Map(v))
         << "\"/>\n";
  }
  *out << "</g>\n<g fill=\"#333\" font-size=\"11\">\n";
  for (double v : y_ticks) {
    *out << "<text x=\"" << kPlotLeft - 6 << "\" y=\"" << ChartNum(y.Map(v) + 4)
         << "\" text-anchor=\"end\">"
         << FormatMilliQuantity(static_cast<int64_t>(v), format) << "</text>\n";
  }
  for (double v : x_ticks) {
    *out << "<text x=\"" << ChartNum(x.Map(v)) << "\" y=\""
         << ChartNum(top + kPanelHeight + 16) << "\" text-anchor=\"middle\">"
         << v << "</text>\n";
  }
  *out
      << "</g>\n<path d=\"M" << kPlotLeft << " " << ChartNum(top) << " V"
      << ChartNum(top + kPanelHeight) << " H" << kPlotRight
      << "\" fill=\"none\" stroke=\"#333\"/>\n<polyline fill=\"none\" stroke=\""
      << kCurveColor << "\" stroke-width=\"2\" points=\"";
  int64_t previous = plan.rows.front().millis[column];
  *out << ChartNum(x.Map(1)) << ","
       << ChartNum(y.Map(static_cast<double>(previous)));
  for (const VerticalPlanRow& row : plan.rows) {
    const int64_t value = row.millis[column];
    if (value == previous) continue;
    *out << " " << ChartNum(x.Map(row.nodes)) << ","
         << ChartNum(y.Map(static_cast<double>(previous))) << " "
         << ChartNum(x.Map(row.nodes)) << ","
         << ChartNum(y.Map(static_cast<double>(value)));
    previous = value;
  }
  *out << " " << ChartNum(x.Map(plan.rows.back().nodes)) << ","
       << ChartNum(y.Map(static_cast<double>(previous))) << "\"/>\n";
}

}  // namespace

std::string VerticalPlanSvg(const VerticalConfig& config,
                            const VerticalPlan& plan) {
  const double nodes = static_cast<double>(plan.rows.size());
  const bool log = nodes >= 100;
  ChartScale x{log ? 1.0 : 0.0, std::max(nodes, 1.0), log, kPlotLeft,
               kPlotRight};
  std::vector<double> x_ticks = log ? LogTicks(nodes) : LinearTicks(nodes, 10);
  if (!log && !x_ticks.empty()) x.hi = std::max(nodes, x_ticks.back());
  const double height =
      kPlotTop + plan.columns.size() * (kPanelHeight + kPanelGap) + 10;
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
      << "\" height=\"" << ChartNum(height) << "\" viewBox=\"0 0 " << kWidth
      << " " << ChartNum(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
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
