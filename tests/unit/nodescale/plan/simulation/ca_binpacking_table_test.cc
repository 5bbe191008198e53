// Cluster Autoscaler's bin-packing estimator cases
// (cluster-autoscaler/estimator/binpacking_estimator_test.go), transcribed
// as facts: the template node, the pods, the node limit, and the nodes and
// pods CA's estimate comes to. CA's snapshot holds one empty node,
// "oldnode", in zone-jupiter; new nodes come from a template in zone-mars.
// In CA's tables pod memory is in bytes and node memory in MiB, so memory
// never binds.
//
// TestBinpackingEstimate: 9 of 9 cases (the fast-path case is the first
// again), one of them with a different answer on purpose: "hostname
// topology spreading with maxSkew=1 ... retroactively" expects 3 nodes for
// 12 pods (4 a node). kube-scheduler's PodTopologySpread filter counts every
// node that passes the pod's node affinity and has the key as a domain, the
// empty oldnode included, so the global minimum stays 0 and a second
// matching pod on any new node has skew 2 > maxSkew 1: the scheduler would
// leave 8 of those 12 pods pending on 3 nodes. propscaler plans what the
// scheduler will do: 12 nodes, one pod each.
// TestBinpackingEstimatePlacementOnAddedNodes: 8 of 8 cases, node and pod
// counts (which new node takes which pod is CA's own heuristic: it tries
// the last added node first; propscaler packs first-fit).
#include <gtest/gtest.h>

#include "nodescale/plan/simulation/estimator.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

// WithMaxSkew(max_skew, topology_key, min_domains): a DoNotSchedule
// topologySpreadConstraint on the pods' own app label.
struct Spread {
  int64_t max_skew = 0;  // 0: none
  const char* key = "";
  int64_t min_domains = 0;
};

enum class AntiAffinity { kNone, kHostname, kZone };

struct PodGroup {
  int64_t cpu_millis;
  int64_t memory_bytes;
  int64_t count;
  int64_t host_port = 0;
  Spread spread = {};
  const char* app = "estimatee";
  // Against the group's own app label.
  AntiAffinity anti_affinity = AntiAffinity::kNone;
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
    {"hostname topology spreading with maxSkew=2 forces 2 pods/node",
     1000,
     5000,
     {{200, 200, 8, 0, {2, "kubernetes.io/hostname", 1}}},
     0,
     4,
     8},
    {"zonal topology spreading with maxSkew=2 only allows 2 pods to schedule",
     1000,
     5000,
     {{20, 100, 8, 0, {2, "topology.kubernetes.io/zone", 1}}},
     0,
     1,
     2},
    {"hostname topology spreading with maxSkew=1 with a large scaleup "
     "handles scheduling pods retroactively",
     1000,
     5000,
     {{20, 100, 12, 0, {1, "kubernetes.io/hostname", 3}}},
     0,
     12,  // CA: 3; see the top of the file
     12},
    {"fastpath - simple resource-based binpacking",
     350 * 3 - 50,
     2 * 1000,
     {{350, 1000, 10}},
     0,
     5,
     10},
};

// TestBinpackingEstimatePlacementOnAddedNodes: template 1000m, 1000 MiB,
// 10 pods; each group labelled app=<its name>.
constexpr AntiAffinity kZone = AntiAffinity::kZone;
constexpr AntiAffinity kHost = AntiAffinity::kHostname;
const CaCase kPlacementCases[] = {
    {"pods from later groups go to the last node while it has room",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "big"},
      {150, 100, 1, 0, {}, "a"},
      {120, 100, 1, 0, {}, "b"},
      {100, 100, 1, 0, {}, "c"}},
     0,
     2,
     5},
    {"pods go to an earlier node when the last node is full",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "big"},
      {400, 100, 1, 0, {}, "medium"},
      {300, 100, 1, 0, {}, "small"}},
     0,
     2,
     4},
    {"pods go to an earlier node when the last node has a host port conflict",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "big"}, {200, 100, 2, 5555, {}, "hostport"}},
     0,
     2,
     4},
    {"pods go to an earlier node when the last node fails hostname "
     "anti-affinity",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "big"}, {200, 100, 2, 0, {}, "spread", kHost}},
     0,
     2,
     4},
    {"empty last node doesn't take pods that fit on a node with pods",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "zonal", kZone}, {300, 100, 1, 0, {}, "small"}},
     0,
     1,
     2},
    {"empty last node is used when pods don't fit on any node with pods",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "zonal", kZone}, {500, 100, 1, 0, {}, "medium"}},
     0,
     2,
     2},
    {"fastpath reuses an empty last node",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "zonal", kZone},
      {300, 100, 1, 0, {}, "small"},
      {100, 100, 30, 0, {}, "many"}},
     0,
     4,
     32},
    {"fastpath reuses an empty last node without using up the node limit",
     1000,
     1000,
     {{600, 100, 2, 0, {}, "zonal", kZone},
      {300, 100, 1, 0, {}, "small"},
      {100, 100, 30, 0, {}, "many"}},
     4,
     4,
     32},
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
      PodState& pod = pods.back();
      pod.labels = {{"app", group.app}};
      const LabelSelector own =
          *LabelSelector::Parse(std::string("app=") + group.app);
      if (group.anti_affinity != AntiAffinity::kNone) {
        pod.anti_affinity = {{own,
                              {},
                              group.anti_affinity == AntiAffinity::kZone
                                  ? "topology.kubernetes.io/zone"
                                  : "kubernetes.io/hostname"}};
      }
      if (group.host_port != 0) {
        pod.host_ports = {{group.host_port, "TCP"}};
      }
      if (group.spread.max_skew != 0) {
        pod.spread = {{group.spread.max_skew, group.spread.key, own,
                       group.spread.min_domains}};
      }
    }
  }
  std::vector<const PodState*> pointers;
  for (const PodState& pod : pods) pointers.push_back(&pod);
  const int64_t max_nodes = c.max_nodes == 0 ? INT64_MAX : c.max_nodes;
  // CA's snapshot holds one empty node in another zone; new nodes are made
  // from a template in zone-mars.
  const Labels old_node = {{"kubernetes.io/hostname", "oldnode"},
                           {"topology.kubernetes.io/zone", "zone-jupiter"}};
  const Labels template_node = {{"kubernetes.io/hostname", "template"},
                                {"topology.kubernetes.io/zone", "zone-mars"}};
  Topology cluster;
  cluster.AddNode(&old_node);
  const PodEstimate estimate = EstimateNewNodes(pointers, node, node, max_nodes,
                                                {&cluster, &template_node});
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

std::string CaseName(const ::testing::TestParamInfo<CaCase>& info) {
  std::string name;
  for (const char* p = info.param.name; *p != '\0'; ++p) {
    name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(BinpackingEstimatorTest, CaBinpackingTableTest,
                         ::testing::ValuesIn(kCases), CaseName);
INSTANTIATE_TEST_SUITE_P(PlacementOnAddedNodesTest, CaBinpackingTableTest,
                         ::testing::ValuesIn(kPlacementCases), CaseName);

}  // namespace
}  // namespace propscaler::nodescale
