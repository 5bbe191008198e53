#include "replicas/params_summary.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

TEST(ParamsSummaryTest, ShowsOnlyWhatIsSet) {
  EXPECT_EQ(SummarizeParams(LinearParams{.cores_per_replica = 2.5,
                                         .max = 9,
                                         .include_unschedulable_nodes = true}),
            "linear: coresPerReplica=2.5 max=9 includeUnschedulableNodes");
  EXPECT_EQ(
      SummarizeParams(LadderParams{.cores_to_replicas = {{1, 1}, {64, 3}},
                                   .nodes_to_replicas = {{1, 1}, {10, 2}}}),
      "ladder: coresToReplicas=[[1,1],[64,3]] "
      "nodesToReplicas=[[1,1],[10,2]]");
  EXPECT_EQ(SummarizeParams(LadderParams{.nodes_to_replicas = {{0, 0}}}),
            "ladder: nodesToReplicas=[[0,0]]");
}

TEST(ParamsSummaryTest, ShowsTheScaleDownPolicy) {
  EXPECT_EQ(SummarizeParams(LinearParams{
                .nodes_per_replica = 1,
                .scale_down = ScaleDownPolicy{.stabilization_seconds = 600,
                                              .max_step_percent = 33,
                                              .period_seconds = 180}}),
            "linear: nodesPerReplica=1 scaleDown={stabilizationSeconds=600,"
            "maxStepPercent=33,periodSeconds=180}");
  EXPECT_EQ(SummarizeParams(LadderParams{.nodes_to_replicas = {{1, 1}},
                                         .scale_down = ScaleDownPolicy{}}),
            "ladder: nodesToReplicas=[[1,1]] scaleDown={stabilizationSeconds="
            "300,maxStepPercent=100,periodSeconds=60}");
}

}  // namespace
}  // namespace propscaler
