// The replica arithmetic and params parsing: what one cycle computes. Both
// are far below a microsecond-scale budget; the figures show the decision is
// never what bounds reaction time.
#include <benchmark/benchmark.h>

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

ClusterCounts Counts(int64_t nodes) {
  return ClusterCounts{.total_nodes = nodes,
                       .schedulable_nodes = nodes - nodes / 100,
                       .total_cores = nodes * 4,
                       .schedulable_cores = (nodes - nodes / 100) * 4};
}

void ParseParamsBench(benchmark::State& state,
                      const std::map<std::string, std::string>& data) {
  for (auto _ : state) {
    Result<Params> params = ParseParams(data);
    benchmark::DoNotOptimize(params);
  }
}
BENCHMARK_CAPTURE(ParseParamsBench, linear, kLinearData);
BENCHMARK_CAPTURE(ParseParamsBench, ladder, kLadderData);

void DesiredReplicasBench(benchmark::State& state,
                          const std::map<std::string, std::string>& data) {
  const Params params = *ParseParams(data);
  int64_t nodes = 1;
  for (auto _ : state) {
    nodes = nodes % 65000 + 1;
    benchmark::DoNotOptimize(DesiredReplicas(params, Counts(nodes)));
  }
}
BENCHMARK_CAPTURE(DesiredReplicasBench, linear, kLinearData);
BENCHMARK_CAPTURE(DesiredReplicasBench, ladder, kLadderData);

}  // namespace
}  // namespace propscaler
