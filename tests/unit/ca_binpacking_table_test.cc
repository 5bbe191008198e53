// Cluster Autoscaler's bin-packing estimator cases
// (cluster-autoscaler/estimator/binpacking_estimator_test.go,
// TestBinpackingEstimate), transcribed as facts: the template node, the
// pods, the node limit, and the nodes and pods CA's estimate comes to. In
// CA's table pod memory is in bytes and node memory in MiB, so memory never
// binds. Carried over: 6 of its 9 cases (the fast-path case is the first
// case again). Not yet: the three topologySpreadConstraints cases, which
// need a predicate propscaler does not have yet (see the node-scale
// semantics issue).
#include <gtest/gtest.h>

#include "nodescale/plan/estimator.h"
#include "nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

struct PodGroup {
  int64_t cpu_millis;
  int64_t memory_bytes;
  int64_t count;
  int64_t host_port = 0;
};

struct CaCase {
  const char* name;
  int64_t node_cpu_millis;
  int64_t node_memory_mib;
  std::vector<PodGroup> groups;
  int64_t max_nodes;  // 0: no limit, as CA's limiter
  int64_t want_nodes;
  int64_t want_pods;
  int64_t want_cpu_of_placed = 0;  // every placed pod's cpu, when it matters
};

const CaCase kCases[] = {
    {"simple resource-based binpacking",
     350 * 3 - 50,
     2 * 1000,
     {{350, 1000, 10}},
     0,
     5,
     10},
    {"pods-per-node bound binpacking", 10000, 20000, {{10, 100, 20}}, 0, 2, 20},
    {"hostport conflict forces pod-per-node",
     1000,
     5000,
     {{200, 1000, 8, 5555}},
     0,
     8,
     8},
    {"limiter cuts binpacking", 1000, 5000, {{500, 1000, 20}}, 5, 5, 10},
    {"decreasing ordered pods are processed first",
     1000,
     5000,
     {{50, 1000, 10}, {500, 1000, 10}},
     5,
     5,
     10,
     500},
    {"fastpath - simple resource-based binpacking",
     350 * 3 - 50,
     2 * 1000,
     {{350, 1000, 10}},
     0,
     5,
     10},
};

class CaBinpackingTableTest : public ::testing::TestWithParam<CaCase> {};

TEST_P(CaBinpackingTableTest, MatchesClusterAutoscaler) {
  const CaCase& c = GetParam();
  // makeNode(..., 10 pods): ten pod slots per node.
  const Resources node = Res(c.node_cpu_millis, c.node_memory_mib * kMi, 10);
  std::vector<PodState> pods;
  for (const PodGroup& group : c.groups) {
    for (int64_t i = 0; i < group.count; ++i) {
      pods.push_back(Pod("estimatee-" + std::to_string(pods.size()),
                         group.cpu_millis, group.memory_bytes));
      if (group.host_port != 0) {
        pods.back().host_ports.push_back({group.host_port, "TCP"});
      }
    }
  }
  std::vector<const PodState*> pointers;
  for (const PodState& pod : pods) pointers.push_back(&pod);
  const int64_t max_nodes = c.max_nodes == 0 ? INT64_MAX : c.max_nodes;
  const PodEstimate estimate =
      EstimateNewNodes(pointers, node, node, max_nodes);
  EXPECT_EQ(estimate.node_count, c.want_nodes);
  int64_t placed = 0;
  for (size_t i = 0; i < pods.size(); ++i) {
    if (estimate.node_of_pod[i] < 0) continue;
    ++placed;
    if (c.want_cpu_of_placed != 0) {
      EXPECT_EQ(pods[i].requests.cpu_millis, c.want_cpu_of_placed)
          << pods[i].name;
    }
  }
  EXPECT_EQ(placed, c.want_pods);
}

INSTANTIATE_TEST_SUITE_P(
    BinpackingEstimatorTest, CaBinpackingTableTest, ::testing::ValuesIn(kCases),
    [](const ::testing::TestParamInfo<CaCase>& info) {
      std::string name;
      for (const char* p = info.param.name; *p != '\0'; ++p) {
        name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
      }
      return name;
    });

}  // namespace
}  // namespace propscaler::nodescale
