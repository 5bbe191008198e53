#include "replicas/plan_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace propscaler {
namespace {

PlanRange Range(int64_t max_nodes, int64_t cpu_millis = 4000) {
  return PlanRange{cpu_millis, max_nodes};
}

ClusterCounts Nodes(int64_t nodes, int64_t cores) {
  return {nodes, nodes, cores, cores};
}

TEST(PlanCurveTest, OneRowPerSizeWithCoresAndChanges) {
  const Params params = LinearParams{.nodes_per_replica = 2};
  const std::vector<PlanRow> curve = PlanCurve(params, Range(4));
  ASSERT_EQ(curve.size(), 4u);
  EXPECT_EQ(curve[0], (PlanRow{1, 4, 1, 0, PlanBound::kNone}));
  EXPECT_EQ(curve[1], (PlanRow{2, 8, 1, 0, PlanBound::kNone}));
  EXPECT_EQ(curve[2], (PlanRow{3, 12, 2, 1, PlanBound::kNone}));
  EXPECT_EQ(curve[3], (PlanRow{4, 16, 2, 0, PlanBound::kNone}));
}

TEST(PlanCurveTest, CoresAreRoundedUpOnceFromTheExactSum) {
  const Params params = LinearParams{.cores_per_replica = 1};
  const std::vector<PlanRow> curve = PlanCurve(params, Range(3, 1500));
  EXPECT_EQ(curve[0].cores, 2);  // 1.5
  EXPECT_EQ(curve[1].cores, 3);  // 3.0
  EXPECT_EQ(curve[2].cores, 5);  // 4.5
  EXPECT_EQ(curve[2].replicas, 5);
}

TEST(PlanBoundTest, NamesTheClampThatDecides) {
  const Params params = LinearParams{.nodes_per_replica = 10,
                                     .min = 3,
                                     .max = 5,
                                     .prevent_single_point_failure = true};
  EXPECT_EQ(BoundAt(params, Nodes(1, 4)), PlanBound::kMin);
  EXPECT_EQ(BoundAt(params, Nodes(35, 140)), PlanBound::kNone);
  EXPECT_EQ(BoundAt(params, Nodes(80, 320)), PlanBound::kMax);
}

TEST(PlanBoundTest, SinglePointFloorAppliesAboveOneNode) {
  const Params params = LinearParams{.cores_per_replica = 256,
                                     .nodes_per_replica = 16,
                                     .prevent_single_point_failure = true};
  EXPECT_EQ(BoundAt(params, Nodes(1, 4)), PlanBound::kNone);
  EXPECT_EQ(BoundAt(params, Nodes(2, 8)), PlanBound::kSinglePointFloor);
  EXPECT_EQ(BoundAt(params, Nodes(16, 64)), PlanBound::kSinglePointFloor);
  EXPECT_EQ(BoundAt(params, Nodes(17, 68)), PlanBound::kNone);
  EXPECT_STREQ(PlanBoundName(PlanBound::kSinglePointFloor),
               "preventSinglePointFailure floor");
}

TEST(PlanBoundTest, SinglePointFloorEvenAboveMax) {
  const Params params = LinearParams{
      .nodes_per_replica = 1, .max = 1, .prevent_single_point_failure = true};
  EXPECT_EQ(BoundAt(params, Nodes(5, 20)), PlanBound::kSinglePointFloor);
}

TEST(PlanBoundTest, LaddersHaveNoBounds) {
  const Params params = LadderParams{.nodes_to_replicas = {{1, 1}, {5, 3}}};
  EXPECT_EQ(BoundAt(params, Nodes(7, 28)), PlanBound::kNone);
  const PlanBounds bounds = BoundsOf(params);
  EXPECT_FALSE(bounds.min || bounds.max || bounds.single_point_floor);
}

TEST(PlanBoundsTest, ListsTheLinearClamps) {
  const PlanBounds bounds =
      BoundsOf(LinearParams{.nodes_per_replica = 1,
                            .min = 2,
                            .max = 9,
                            .prevent_single_point_failure = true});
  EXPECT_EQ(bounds.min, 2);
  EXPECT_EQ(bounds.max, 9);
  EXPECT_EQ(bounds.single_point_floor, 2);
  EXPECT_FALSE(BoundsOf(LinearParams{.nodes_per_replica = 1, .min = 1}).min);
}

TEST(PlanStepsTest, KeepsChangesBoundChangesEdgesAndPowersOfTen) {
  const Params params =
      LadderParams{.nodes_to_replicas = {{1, 1}, {10, 2}, {100, 3}, {250, 4}}};
  std::vector<int64_t> nodes;
  for (const PlanRow& row : PlanSteps(PlanCurve(params, Range(300)))) {
    nodes.push_back(row.nodes);
  }
  EXPECT_EQ(nodes, (std::vector<int64_t>{1, 10, 100, 250, 300}));
}

TEST(PlanStepsTest, KeepsTheRowWhereABoundStops) {
  const Params params = LinearParams{.nodes_per_replica = 16,
                                     .prevent_single_point_failure = true};
  std::vector<PlanRow> steps = PlanSteps(PlanCurve(params, Range(40)));
  ASSERT_EQ(steps.size(), 6u);
  EXPECT_EQ(steps[0], (PlanRow{1, 4, 1, 0, PlanBound::kNone}));
  EXPECT_EQ(steps[1], (PlanRow{2, 8, 2, 1, PlanBound::kSinglePointFloor}));
  EXPECT_EQ(steps[2].nodes, 10);  // anchor
  // From 17 nodes two replicas come from nodesPerReplica, not the floor.
  EXPECT_EQ(steps[3], (PlanRow{17, 68, 2, 0, PlanBound::kNone}));
  EXPECT_EQ(steps[4], (PlanRow{33, 132, 3, 1, PlanBound::kNone}));
  EXPECT_EQ(steps[5].nodes, 40);  // last
}

}  // namespace
}  // namespace propscaler
