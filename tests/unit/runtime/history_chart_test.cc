#include "runtime/history_chart.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "unit/svg_test_util.h"

namespace propscaler::runtime {
namespace {

using std::chrono::minutes;

const TimePoint kStart = TimePoint(std::chrono::hours(1000));

// The attribute `name` of the polyline whose data-series is `series`.
std::string LineAttribute(const std::string& svg, const std::string& series,
                          const std::string& name) {
  std::smatch m;
  const std::regex line("<polyline [^>]*data-series=\"" + series +
                        "\" data-values=\"([^\"]*)\" points=\"([^\"]*)\"");
  if (!std::regex_search(svg, m, line)) return "(no such line)";
  return name == "data-values" ? m[1].str() : m[2].str();
}

// The x coordinates of a points attribute, and whether each y repeats the
// one before ('=' ) or not ('^' higher on screen, 'v' lower).
std::string Shape(const std::string& points) {
  std::istringstream in(points);
  std::string shape;
  double last_y = -1;
  for (std::string corner; in >> corner;) {
    const size_t comma = corner.find(',');
    const double y = std::stod(corner.substr(comma + 1));
    if (!shape.empty()) {
      shape += y == last_y ? " = " : (y < last_y ? " ^ " : " v ");
    }
    shape += corner.substr(0, comma);
    last_y = y;
  }
  return shape;
}

TEST(HistoryChartTest, DrawsEachLineFromItsNumbers) {
  History history;
  history.Record("replicas", kStart, 2);
  history.Record("replicas", kStart + minutes(10), 5);
  history.Record("nodes", kStart, 4);
  history.Record("nodes", kStart + minutes(10), 10);
  const std::string svg =
      HistoryChartSvg(history,
                      {.title = "Replicas & nodes",
                       .lines = {{"replicas"}, {"nodes", "all nodes"}}},
                      kStart + minutes(20));
  EXPECT_TRUE(svg.starts_with("<svg ")) << svg;
  EXPECT_TRUE(testing_util::TagsBalance(svg)) << svg;
  EXPECT_EQ(LineAttribute(svg, "replicas", "data-values"), "2 5");
  EXPECT_EQ(LineAttribute(svg, "all nodes", "data-values"), "4 10");
  // From the left edge (the oldest point) as steps to the right edge (now):
  // the change at 10 minutes is in the middle.
  EXPECT_EQ(Shape(LineAttribute(svg, "replicas", "points")),
            "60.0 = 330.0 ^ 330.0 = 600.0");
  EXPECT_NE(svg.find("Replicas &amp; nodes (UTC)"), std::string::npos);
  EXPECT_NE(svg.find(">all nodes: <tspan font-weight=\"bold\">10</tspan>"),
            std::string::npos)
      << svg;
}

TEST(HistoryChartTest, ShowsAtLeastAMinuteAndAtMostTheWindow) {
  History history(std::chrono::hours(1));
  history.Record("pending pods", kStart, 3);
  const std::string young = HistoryChartSvg(
      history, {.lines = {{"pending pods"}}}, kStart + std::chrono::seconds(6));
  // The point, 6 s old, sits at nine tenths of a minute-long axis.
  EXPECT_EQ(Shape(LineAttribute(young, "pending pods", "points")),
            "546.0 = 600.0");
  EXPECT_NE(young.find(">16:00:00</text>"), std::string::npos) << young;
  const std::string old = HistoryChartSvg(
      history, {.lines = {{"pending pods"}}}, kStart + minutes(600));
  EXPECT_EQ(Shape(LineAttribute(old, "pending pods", "points")),
            "60.0 = 600.0");
}

TEST(HistoryChartTest, MarksAndEmptyCharts) {
  History history;
  EXPECT_EQ(HistoryChartSvg(
                history, {.title = "Pending pods", .lines = {{"pending pods"}}},
                kStart),
            "<p>Pending pods: nothing recorded yet</p>");
  history.Record("target", kStart, 1);
  history.Mark(kStart + minutes(5), "scale-up: small <+2>");
  const std::string with = HistoryChartSvg(
      history, {.lines = {{"target"}}, .marks = true}, kStart + minutes(10));
  EXPECT_TRUE(testing_util::TagsBalance(with)) << with;
  EXPECT_NE(with.find("data-mark=\"scale-up: small &lt;+2&gt;\""),
            std::string::npos)
      << with;
  const std::string without =
      HistoryChartSvg(history, {.lines = {{"target"}}}, kStart + minutes(10));
  EXPECT_EQ(without.find("data-mark"), std::string::npos);
}

}  // namespace
}  // namespace propscaler::runtime
