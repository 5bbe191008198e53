// The node watch path on one core: decoding a realistic MODIFIED event
// (~3.9 KB Node JSON from the simulated server's generator) and applying it
// to a NodeStore holding 65,000 nodes; also decoding one 500-node list page.
// Items per second of WatchEventIntoStore is "watch events per second".
#include <benchmark/benchmark.h>

#include "apiserver/node_generator.h"
#include "cluster/node_store.h"
#include "kube/decode.h"

namespace propscaler {
namespace {

constexpr int kClusterNodes = 65000;
constexpr int kDistinctEvents = 1000;

std::string WatchLine(int index) {
  std::string node = sim::MakeNodeJson(
      sim::GeneratedNodeShape("sim-node-", index, /*cpu_cores=*/0));
  // As the server sends it: with a resourceVersion.
  node.insert(
      node.find("\"metadata\":{") + 12,
      "\"resourceVersion\":\"" + std::to_string(100000 + index) + "\",");
  return R"({"type":"MODIFIED","object":)" + node + "}";
}

const std::vector<std::string>& WatchLines() {
  static const auto* lines = [] {
    auto* out = new std::vector<std::string>;
    for (int i = 1; i <= kDistinctEvents; ++i) out->push_back(WatchLine(i));
    return out;
  }();
  return *lines;
}

void DecodeNodeWatchEventBench(benchmark::State& state) {
  const std::vector<std::string>& lines = WatchLines();
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const std::string& line = lines[i++ % lines.size()];
    bytes += static_cast<int64_t>(line.size());
    benchmark::DoNotOptimize(kube::DecodeNodeWatchEvent(line));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
}
BENCHMARK(DecodeNodeWatchEventBench);

void WatchEventIntoStoreBench(benchmark::State& state) {
  NodeStore store;
  std::vector<kube::NodeInfo> nodes;
  for (int i = 1; i <= kClusterNodes; ++i) {
    nodes.push_back({"sim-node-" + std::to_string(i), 3920, false, true});
  }
  store.Replace(std::move(nodes));
  const std::vector<std::string>& lines = WatchLines();
  size_t i = 0;
  for (auto _ : state) {
    Result<kube::WatchEvent<kube::NodeInfo>> event =
        kube::DecodeNodeWatchEvent(lines[i++ % lines.size()]);
    benchmark::DoNotOptimize(store.Upsert(*event->object));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(WatchEventIntoStoreBench);

std::string ListPage(int first, int count) {
  std::string body =
      R"({"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":)"
      R"("70000","continue":"next"},"items":[)";
  for (int i = first; i < first + count; ++i) {
    if (i != first) body += ',';
    body += sim::MakeNodeJson(sim::GeneratedNodeShape("sim-node-", i, 0));
  }
  return body + "]}";
}

void DecodeNodeListPageBench(benchmark::State& state) {
  const std::string page = ListPage(1, 500);
  for (auto _ : state) {
    benchmark::DoNotOptimize(kube::DecodeNodeList(page));
  }
  state.SetItemsProcessed(state.iterations() * 500);
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(page.size()));
}
BENCHMARK(DecodeNodeListPageBench);

}  // namespace
}  // namespace propscaler
