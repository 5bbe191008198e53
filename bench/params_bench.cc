// The replica arithmetic and params parsing: what one cycle computes. Both
// are far below a microsecond-scale budget; the figures show the decision is
// never what bounds reaction time. Each benchmark checks its answer against
// CPA's arithmetic worked by hand (../shared/reference/cpa-semantics.md):
// a parser that fails or an arithmetic that is off fails the run.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "replicas/arithmetic.h"
#include "replicas/params.h"

namespace propscaler {
namespace {

const std::map<std::string, std::string> kLinearData = {
    {"linear",
     R"({"coresPerReplica":256,"nodesPerReplica":16,"min":1,"max":100,)"
     R"("preventSinglePointFailure":true,"includeUnschedulableNodes":true})"}};

const std::map<std::string, std::string> kLadderData = {
    {"ladder", R"({"coresToReplicas":[[1,1],[64,3],[512,5],[1024,7],[2048,10],)"
               R"([4096,15]],"nodesToReplicas":[[1,1],[2,2]]})"}};

const Params kLinearParams = LinearParams{.cores_per_replica = 256,
                                          .nodes_per_replica = 16,
                                          .min = 1,
                                          .max = 100,
                                          .prevent_single_point_failure = true,
                                          .include_unschedulable_nodes = true};

const Params kLadderParams = LadderParams{
    .cores_to_replicas =
        {{1, 1}, {64, 3}, {512, 5}, {1024, 7}, {2048, 10}, {4096, 15}},
    .nodes_to_replicas = {{1, 1}, {2, 2}}};

// 1% of the nodes unschedulable, 4 cores each.
ClusterCounts Counts(int64_t nodes) {
  return ClusterCounts{.total_nodes = nodes,
                       .schedulable_nodes = nodes - nodes / 100,
                       .total_cores = nodes * 4,
                       .schedulable_cores = (nodes - nodes / 100) * 4};
}

struct Expected {
  int64_t nodes;
  int64_t replicas;
};

// linear (total counts): max(ceil(4n / 256), ceil(n / 16)) within [1, 100],
// at least 2 from 2 nodes.
const std::vector<Expected> kLinearExpected = {
    {1, 1}, {2, 2}, {1000, 63}, {65000, 100}};
// ladder (schedulable counts): 100 nodes -> 99 nodes, 396 cores -> 3;
// 1,000 -> 3,960 cores -> 10; 65,000 -> 257,400 cores -> 15.
const std::vector<Expected> kLadderExpected = {
    {1, 1}, {100, 3}, {1000, 10}, {65000, 15}};

void ParseParamsBench(benchmark::State& state,
                      const std::map<std::string, std::string>& data,
                      const Params& expected) {
  Result<Params> params = ParseParams(data);
  for (auto _ : state) {
    params = ParseParams(data);
    benchmark::DoNotOptimize(params);
  }
  if (!params.ok()) {
    state.SkipWithError(
        ("the params do not parse: " + params.status().message()).c_str());
  } else if (!(*params == expected)) {
    state.SkipWithError("the params parse to other values than written");
  }
}
BENCHMARK_CAPTURE(ParseParamsBench, linear, kLinearData, kLinearParams);
BENCHMARK_CAPTURE(ParseParamsBench, ladder, kLadderData, kLadderParams);

void DesiredReplicasBench(benchmark::State& state,
                          const std::map<std::string, std::string>& data,
                          const std::vector<Expected>& expected) {
  const Params params = *ParseParams(data);
  int64_t nodes = 1;
  for (auto _ : state) {
    nodes = nodes % 65000 + 1;
    benchmark::DoNotOptimize(DesiredReplicas(params, Counts(nodes)));
  }
  for (const Expected& want : expected) {
    const int64_t got = DesiredReplicas(params, Counts(want.nodes));
    if (got == want.replicas) continue;
    state.SkipWithError((std::to_string(want.nodes) + " nodes give " +
                         std::to_string(got) + " replicas, want " +
                         std::to_string(want.replicas))
                            .c_str());
    return;
  }
}
BENCHMARK_CAPTURE(DesiredReplicasBench, linear, kLinearData, kLinearExpected);
BENCHMARK_CAPTURE(DesiredReplicasBench, ladder, kLadderData, kLadderExpected);

}  // namespace
}  // namespace propscaler
