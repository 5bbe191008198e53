#include "app/plan_output.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace propscaler {
namespace {

const Params kCoreDns = LinearParams{.cores_per_replica = 256,
                                     .nodes_per_replica = 16,
                                     .prevent_single_point_failure = true};

TEST(PlanTableTextTest, HeadingAndOneLinePerStep) {
  const PlanRange range{4000, 40};
  const std::string text =
      PlanTableText(kCoreDns, range, PlanSteps(PlanCurve(kCoreDns, range)));
  EXPECT_EQ(text,
            "params: linear: coresPerReplica=256 nodesPerReplica=16 "
            "preventSinglePointFailure\n"
            "cluster: 1 to 40 nodes of 4 cores, all schedulable; rows where "
            "replicas change, and anchors\n"
            "\n"
            "   nodes     cores  replicas  change  bound\n"
            "       1         4         1\n"
            "       2         8         2      +1  preventSinglePointFailure "
            "floor\n"
            "      10        40         2          preventSinglePointFailure "
            "floor\n"
            "      17        68         2\n"
            "      33       132         3      +1\n"
            "      40       160         3\n");
}

TEST(NodeListPlanTextTest, CountsAndReplicas) {
  NodeListPlan plan{"nodes.json",
                    "pool=a",
                    {5, {3, 2, 12, 8}},
                    2,
                    PlanBound::kSinglePointFloor};
  EXPECT_EQ(NodeListPlanText(kCoreDns, plan),
            "params: linear: coresPerReplica=256 nodesPerReplica=16 "
            "preventSinglePointFailure\n"
            "nodes: nodes.json: 5 listed, 3 match --nodelabels=pool=a\n"
            "counted: 3 nodes, 12 cores\n"
            "schedulable: 2 nodes, 8 cores\n"
            "uses: schedulable\n"
            "replicas: 2 (preventSinglePointFailure floor)\n");
}

}  // namespace
}  // namespace propscaler
