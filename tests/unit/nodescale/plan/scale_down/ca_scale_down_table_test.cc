// Cluster Autoscaler's scale-down eligibility cases
// (cluster-autoscaler/core/scaledown/eligibility/eligibility_test.go,
// TestFilterOutUnremovable), transcribed as facts: 1-cpu nodes of one
// group, pods by milli-cpu, and which nodes stay candidates for removal
// (utilization threshold 0.5, CA's default). Here a node is a candidate when
// the plan removes it or keeps it for a reason found after eligibility (a
// pod that cannot move); the group's min size is 0 so that it does not
// decide. Carried over: 8 of CA's 9 distinct cases (its 7 base cases run
// with and without --ignore-daemonsets-utilization, plus 2 DaemonSet
// cases). Not carried: "unready node is filtered out when scale-down of
// unready is disabled": propscaler has no --scale-down-unready-enabled
// (unready nodes are candidates, CA's default).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

struct EligibilityCase {
  const char* name;
  std::vector<std::string> nodes;  // regular, justDeleted, noScaleDown,
                                   // unready
  std::vector<std::string> pods;   // bigPod, smallPod, dsPod (on regular)
  bool ignore_daemonsets_utilization;
  std::set<std::string> want;
};

NodeState CaNode(const std::string& name) {
  NodeState node = Node(name, "ng1", 1000, 10 * kGi);
  if (name == "justDeleted") {
    node.taints = {{std::string(kToBeDeletedTaint), "1700000000",
                    TaintEffect::kNoSchedule}};
  }
  if (name == "noScaleDown") {
    node.annotations = {{std::string(kScaleDownDisabledAnnotation), "true"}};
  }
  if (name == "unready") node.ready = false;
  return node;
}

// CA's test pods have no controller and request no memory.
PodState CaPod(const std::string& name) {
  if (name == "dsPod") return DaemonSetPod("dsPod", "regular", 500, 0);
  return BoundPod(name, "regular", name == "bigPod" ? 600 : 100, 0, "");
}

class CaEligibilityTableTest
    : public ::testing::TestWithParam<EligibilityCase> {};

TEST_P(CaEligibilityTableTest, MatchesClusterAutoscaler) {
  const EligibilityCase& c = GetParam();
  ClusterSnapshot snapshot;
  for (const std::string& name : c.nodes) {
    snapshot.nodes.push_back(CaNode(name));
  }
  for (const std::string& name : c.pods) snapshot.pods.push_back(CaPod(name));
  std::vector<NodeGroup> groups = {Group(
      "ng1", 0, 10, static_cast<int64_t>(c.nodes.size()), 1000, 10 * kGi)};
  ScaleDownConfig config;
  config.ignore_daemonsets_utilization = c.ignore_daemonsets_utilization;
  const ScaleDownPlan plan = PlanScaleDown(snapshot, groups, config);
  std::set<std::string> candidates;
  for (const NodeRemoval& removal : plan.removals) {
    candidates.insert(removal.node);
  }
  for (const KeptNode& kept : plan.kept) candidates.insert(kept.node);
  EXPECT_EQ(candidates, c.want);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CaEligibilityTableTest,
    ::testing::Values(
        EligibilityCase{
            "RegularNodeStays", {"regular"}, {}, false, {"regular"}},
        EligibilityCase{"RecentlyDeletedNodeIsFilteredOut",
                        {"regular", "justDeleted"},
                        {},
                        false,
                        {"regular"}},
        EligibilityCase{"MarkedNoScaleDownIsFilteredOut",
                        {"noScaleDown", "regular"},
                        {},
                        false,
                        {"regular"}},
        EligibilityCase{"HighlyUtilizedNodeIsFilteredOut",
                        {"regular"},
                        {"bigPod"},
                        false,
                        {}},
        EligibilityCase{"UnderutilizedNodeStays",
                        {"regular"},
                        {"smallPod"},
                        false,
                        {"regular"}},
        EligibilityCase{
            "UnreadyNodeStays", {"unready"}, {}, false, {"unready"}},
        EligibilityCase{"HighUtilizationDaemonSetsNodeIsFilteredOut",
                        {"regular"},
                        {"smallPod", "dsPod"},
                        false,
                        {}},
        EligibilityCase{"HighUtilizationDaemonSetsNodeStays",
                        {"regular"},
                        {"smallPod", "dsPod"},
                        true,
                        {"regular"}}),
    [](const ::testing::TestParamInfo<EligibilityCase>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace propscaler::nodescale
