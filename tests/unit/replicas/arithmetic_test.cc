#include "replicas/arithmetic.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>

#include "replicas/params.h"

namespace propscaler {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// All nodes schedulable.
ClusterCounts Cluster(int64_t nodes, int64_t cores) {
  return {.total_nodes = nodes,
          .schedulable_nodes = nodes,
          .total_cores = cores,
          .schedulable_cores = cores};
}

const LinearParams kCoreDns = {.cores_per_replica = 256,
                               .nodes_per_replica = 16,
                               .prevent_single_point_failure = true};

struct LinearCase {
  std::string name;
  LinearParams params;
  ClusterCounts counts;
  int64_t replicas;
};

void PrintTo(const LinearCase& c, std::ostream* os) { *os << c.name; }

class LinearReplicasTest : public testing::TestWithParam<LinearCase> {};

TEST_P(LinearReplicasTest, MatchesCpa) {
  const LinearCase& c = GetParam();
  EXPECT_EQ(LinearReplicas(c.params, c.counts), c.replicas);
  EXPECT_EQ(DesiredReplicas(Params(c.params), c.counts), c.replicas);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LinearReplicasTest,
    testing::Values(
        // The example in cpa-semantics.md: max(ceil(13/2), ceil(4/1)) = 7.
        LinearCase{"SemanticsExample",
                   {.cores_per_replica = 2,
                    .nodes_per_replica = 1,
                    .min = 1,
                    .max = 100},
                   Cluster(4, 13),
                   7},
        // CoreDNS/kube-dns defaults at several cluster sizes.
        LinearCase{"CoreDnsOneNode", kCoreDns, Cluster(1, 4), 1},
        LinearCase{"CoreDnsTwoNodes", kCoreDns, Cluster(2, 8), 2},
        LinearCase{"CoreDnsSixteenNodes", kCoreDns, Cluster(16, 64), 2},
        LinearCase{"CoreDnsBigCores", kCoreDns, Cluster(10, 1000), 4},
        LinearCase{"CoreDnsHundredNodes", kCoreDns, Cluster(100, 400), 7},
        LinearCase{"CoreDnsThousandNodes", kCoreDns, Cluster(1000, 8000), 63},
        LinearCase{"CoreDnsZeroNodes", kCoreDns, Cluster(0, 0), 1},
        // preventSinglePointFailure: 1 node vs 2 nodes.
        LinearCase{
            "PspfOneNode",
            {.nodes_per_replica = 16, .prevent_single_point_failure = true},
            Cluster(1, 2),
            1},
        LinearCase{
            "PspfTwoNodes",
            {.nodes_per_replica = 16, .prevent_single_point_failure = true},
            Cluster(2, 2),
            2},
        LinearCase{
            "NoPspfTwoNodes", {.nodes_per_replica = 16}, Cluster(2, 2), 1},
        // The PSPF step comes after the max clamp, so it beats max 1.
        LinearCase{"PspfAfterMaxClamp",
                   {.nodes_per_replica = 16,
                    .max = 1,
                    .prevent_single_point_failure = true},
                   Cluster(5, 10),
                   2},
        // PSPF looks at nodes even when only cores are configured: fromNodes
        // is 1 (per == 0), raised to 2.
        LinearCase{
            "PspfWithCoresOnly",
            {.cores_per_replica = 256, .prevent_single_point_failure = true},
            Cluster(3, 12),
            2},
        // Max clamps each resource; min raises it.
        LinearCase{"MaxClamp",
                   {.cores_per_replica = 1, .nodes_per_replica = 1, .max = 5},
                   Cluster(50, 400),
                   5},
        LinearCase{"MinRaises",
                   {.cores_per_replica = 100, .min = 3},
                   Cluster(2, 8),
                   3},
        LinearCase{"MinEqualsMax",
                   {.nodes_per_replica = 1, .min = 4, .max = 4},
                   Cluster(100, 100),
                   4},
        // min 0 means 1, also with zero nodes.
        LinearCase{
            "MinZeroMeansOne", {.nodes_per_replica = 1}, Cluster(0, 0), 1},
        // A zero per-replica value gives 1, ignoring min for that resource.
        LinearCase{
            "ZeroPerGivesOne",
            {.cores_per_replica = 0, .nodes_per_replica = 1000, .min = 0},
            Cluster(3, 1000000),
            1},
        LinearCase{
            "FractionalPer", {.cores_per_replica = 0.5}, Cluster(1, 3), 6},
        LinearCase{
            "CeilOfFraction", {.nodes_per_replica = 3}, Cluster(7, 0), 3},
        // includeUnschedulableNodes chooses total over schedulable counts.
        LinearCase{"SchedulableOnly",
                   {.cores_per_replica = 1, .nodes_per_replica = 1},
                   {.total_nodes = 10,
                    .schedulable_nodes = 4,
                    .total_cores = 20,
                    .schedulable_cores = 6},
                   6},
        LinearCase{"IncludeUnschedulable",
                   {.cores_per_replica = 1,
                    .nodes_per_replica = 1,
                    .include_unschedulable_nodes = true},
                   {.total_nodes = 10,
                    .schedulable_nodes = 4,
                    .total_cores = 20,
                    .schedulable_cores = 6},
                   20},
        // PSPF uses the same chosen node count.
        LinearCase{
            "PspfCountsSchedulableNodes",
            {.nodes_per_replica = 16, .prevent_single_point_failure = true},
            {.total_nodes = 3,
             .schedulable_nodes = 1,
             .total_cores = 12,
             .schedulable_cores = 4},
            1},
        LinearCase{"PspfCountsTotalNodesWhenIncluded",
                   {.nodes_per_replica = 16,
                    .prevent_single_point_failure = true,
                    .include_unschedulable_nodes = true},
                   {.total_nodes = 3,
                    .schedulable_nodes = 1,
                    .total_cores = 12,
                    .schedulable_cores = 4},
                   2},
        // Overflow saturates instead of wrapping.
        LinearCase{"TinyPerSaturates",
                   {.cores_per_replica = 1e-300},
                   Cluster(1, 1000),
                   kMax},
        LinearCase{"TinyPerClampedByMax",
                   {.cores_per_replica = 1e-300, .max = 50},
                   Cluster(1, 1000),
                   50},
        LinearCase{
            "HugeCounts", {.nodes_per_replica = 1}, Cluster(kMax, kMax), kMax}),
    [](const testing::TestParamInfo<LinearCase>& info) {
      return info.param.name;
    });

const LadderParams kLadder = {
    .cores_to_replicas =
        {{1, 1}, {64, 3}, {512, 5}, {1024, 7}, {2048, 10}, {4096, 15}},
    .nodes_to_replicas = {{1, 1}, {2, 2}},
};

struct LadderCase {
  std::string name;
  LadderParams params;
  ClusterCounts counts;
  int64_t replicas;
};

void PrintTo(const LadderCase& c, std::ostream* os) { *os << c.name; }

class LadderReplicasTest : public testing::TestWithParam<LadderCase> {};

TEST_P(LadderReplicasTest, MatchesCpa) {
  const LadderCase& c = GetParam();
  EXPECT_EQ(LadderReplicas(c.params, c.counts), c.replicas);
  EXPECT_EQ(DesiredReplicas(Params(c.params), c.counts), c.replicas);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LadderReplicasTest,
    testing::Values(
        // The example in cpa-semantics.md: cores 400 -> 3, nodes 100 -> 2.
        LadderCase{"SemanticsExample", kLadder, Cluster(100, 400), 3},
        LadderCase{"ExactThreshold", kLadder, Cluster(1, 512), 5},
        LadderCase{"JustBelowThreshold", kLadder, Cluster(1, 511), 3},
        LadderCase{"TopStep", kLadder, Cluster(5000, 100000), 15},
        LadderCase{"NodesWin",
                   {.cores_to_replicas = {{1, 1}},
                    .nodes_to_replicas = {{1, 1}, {10, 4}}},
                   Cluster(10, 5),
                   4},
        // Below the first threshold the first entry still applies.
        LadderCase{
            "BelowFirstThreshold",
            {.cores_to_replicas = {{10, 2}, {20, 3}}, .nodes_to_replicas = {}},
            Cluster(1, 5),
            2},
        LadderCase{"ZeroNodes", kLadder, Cluster(0, 0), 1},
        // Empty lists give 0; replicas may be 0.
        LadderCase{"BothEmpty", {}, Cluster(10, 40), 0},
        LadderCase{
            "OneEmpty",
            {.cores_to_replicas = {}, .nodes_to_replicas = {{1, 1}, {3, 2}}},
            Cluster(3, 40),
            2},
        LadderCase{
            "ZeroReplicasStep",
            {.cores_to_replicas = {}, .nodes_to_replicas = {{0, 0}, {2, 1}}},
            Cluster(1, 4),
            0},
        LadderCase{
            "ZeroReplicasThenOne",
            {.cores_to_replicas = {}, .nodes_to_replicas = {{0, 0}, {2, 1}}},
            Cluster(2, 4),
            1},
        // Equal thresholds: the later step wins, as CPA's search does.
        LadderCase{"EqualThresholds",
                   {.cores_to_replicas = {},
                    .nodes_to_replicas = {{1, 1}, {5, 2}, {5, 3}}},
                   Cluster(7, 0),
                   3},
        // includeUnschedulableNodes chooses total over schedulable counts.
        LadderCase{"SchedulableOnly",
                   kLadder,
                   {.total_nodes = 100,
                    .schedulable_nodes = 1,
                    .total_cores = 600,
                    .schedulable_cores = 4},
                   1},
        LadderCase{"IncludeUnschedulable",
                   {.cores_to_replicas = kLadder.cores_to_replicas,
                    .nodes_to_replicas = kLadder.nodes_to_replicas,
                    .include_unschedulable_nodes = true},
                   {.total_nodes = 100,
                    .schedulable_nodes = 1,
                    .total_cores = 600,
                    .schedulable_cores = 4},
                   5}),
    [](const testing::TestParamInfo<LadderCase>& info) {
      return info.param.name;
    });

// End to end through the parser: the ConfigMap text of the CPA README.
TEST(DesiredReplicasTest, FromParsedConfigMap) {
  Result<Params> ladder = ParseParams(
      {{"ladder",
        R"({"coresToReplicas":[[1,1],[64,3],[512,5],[1024,7],[2048,10],[4096,15]],)"
        R"("nodesToReplicas":[[1,1],[2,2]]})"}});
  ASSERT_TRUE(ladder.ok()) << ladder.status().message();
  EXPECT_EQ(DesiredReplicas(*ladder, Cluster(100, 400)), 3);

  Result<Params> linear =
      ParseParams({{"linear", R"({"coresPerReplica":256,"nodesPerReplica":16,)"
                              R"("preventSinglePointFailure":true})"}});
  ASSERT_TRUE(linear.ok()) << linear.status().message();
  EXPECT_EQ(DesiredReplicas(*linear, Cluster(2, 8)), 2);
  EXPECT_EQ(DesiredReplicas(*linear, Cluster(1, 8)), 1);
}

}  // namespace
}  // namespace propscaler
