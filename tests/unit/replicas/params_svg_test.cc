#include "replicas/params_svg.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "unit/svg_test_util.h"

namespace propscaler {
namespace {

const Params kCoreDns = LinearParams{.cores_per_replica = 256,
                                     .nodes_per_replica = 16,
                                     .prevent_single_point_failure = true};

const Params kLadder = LadderParams{
    .cores_to_replicas = {{1, 1}, {64, 3}},
    .nodes_to_replicas = {{1, 1}, {10, 2}, {100, 3}},
};

std::vector<std::string> PolylinePoints(const std::string& svg) {
  std::smatch m;
  std::string points;
  if (std::regex_search(svg, m,
                        std::regex(R"(<polyline [^>]*points="([^"]*)\")"))) {
    points = m[1];
  }
  std::vector<std::string> out;
  std::istringstream in(points);
  for (std::string p; in >> p;) out.push_back(p);
  return out;
}

TEST(StepLinePointsTest, CornersAtEachChange) {
  const std::vector<PlanRow> curve = PlanCurve(kLadder, {4000, 300});
  EXPECT_EQ(StepLinePoints(curve),
            (std::vector<StepPoint>{
                {1, 1}, {10, 1}, {10, 2}, {16, 2}, {16, 3}, {300, 3}}));
}

TEST(PlanSvgTest, WellFormedWithTheStepLine) {
  const PlanRange range{4000, 300};
  const std::string svg = PlanSvg(kLadder, range, PlanCurve(kLadder, range));
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_TRUE(testing_util::TagsBalance(svg)) << svg;
  const std::vector<std::string> points = PolylinePoints(svg);
  ASSERT_EQ(points.size(), 6u) << svg;
  // 1 node sits on the left edge of the plot (log scale), 300 on the right.
  EXPECT_TRUE(points.front().starts_with("70.0,")) << points.front();
  EXPECT_TRUE(points.back().starts_with("830.0,")) << points.back();
  EXPECT_NE(svg.find("logarithmic scale"), std::string::npos);
  EXPECT_NE(svg.find(">replicas</text>"), std::string::npos);
  EXPECT_EQ(svg.find("stroke-dasharray"), std::string::npos)
      << "a ladder has no clamps to mark";
}

TEST(PlanSvgTest, MarksClampsAndTheFloor) {
  const Params params = LinearParams{.nodes_per_replica = 4,
                                     .min = 3,
                                     .max = 6,
                                     .prevent_single_point_failure = true};
  const PlanRange range{4000, 50};
  const std::string svg = PlanSvg(params, range, PlanCurve(params, range));
  EXPECT_TRUE(testing_util::TagsBalance(svg)) << svg;
  EXPECT_NE(svg.find(">max 6</text>"), std::string::npos);
  EXPECT_NE(svg.find(">min 3</text>"), std::string::npos);
  EXPECT_NE(svg.find(">preventSinglePointFailure floor 2</text>"),
            std::string::npos);
  EXPECT_EQ(svg.find("logarithmic"), std::string::npos);
}

TEST(PlanSvgTest, EscapesText) {
  const PlanRange range{4000, 5};
  const std::string svg = PlanSvg(kCoreDns, range, PlanCurve(kCoreDns, range));
  EXPECT_TRUE(testing_util::TagsBalance(svg));
  EXPECT_EQ(svg.find("&&"), std::string::npos);
}

TEST(PlanSvgTest, MarksWhereTheClusterIs) {
  const PlanRange range{4000, 50};
  const std::string svg =
      PlanSvg(kLadder, range, PlanCurve(kLadder, range), StepPoint{12, 2});
  EXPECT_TRUE(testing_util::TagsBalance(svg)) << svg;
  EXPECT_NE(svg.find("data-now-nodes=\"12\" data-now-replicas=\"2\""),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">now: 12 nodes, 2 replicas</text>"), std::string::npos);
  EXPECT_EQ(PlanSvg(kLadder, range, PlanCurve(kLadder, range)).find("now:"),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler
