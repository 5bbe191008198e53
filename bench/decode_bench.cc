// The node watch path on one core: decoding a realistic MODIFIED event
// (~3.9 KB Node JSON from the simulated server's generator) and applying it
// to a NodeStore holding 65,000 nodes; also decoding one 500-node list page.
// Items per second of WatchEventIntoStore is "watch events per second".
// Each benchmark checks, outside its timed loop, that what it decoded is
// the node it encoded (a decoder that fails fast must not print a fast
// figure): a wrong result fails it (SkipWithError, exit 1).
#include <benchmark/benchmark.h>

#include "apiserver/node_generator.h"
#include "cluster/node_store.h"
#include "kube/wire/decode.h"

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

// Every distinct line decodes to a Ready node of its own name, its
// allocatable CPU within its instance type's cores; the first wrong one,
// said.
std::string CheckWatchLines() {
  const std::vector<std::string>& lines = WatchLines();
  for (size_t i = 0; i < lines.size(); ++i) {
    Result<kube::WatchEvent<kube::NodeInfo>> event =
        kube::DecodeNodeWatchEvent(lines[i]);
    const std::string name = "sim-node-" + std::to_string(i + 1);
    if (!event.ok()) return name + ": " + event.status().message();
    const int64_t cores =
        sim::GeneratedNodeShape("sim-node-", static_cast<int>(i + 1), 0)
            .cpu_cores;
    if (event->type != kube::WatchEventType::kModified || !event->object ||
        event->object->name != name || !event->object->ready ||
        event->object->cpu_millis <= 0 ||
        event->object->cpu_millis > cores * 1000) {
      return name + ": decoded as " +
             (event->object
                  ? event->object->name + ", ready " +
                        std::to_string(event->object->ready) + ", " +
                        std::to_string(event->object->cpu_millis) + "m"
                  : std::string("no node"));
    }
  }
  return "";
}

void DecodeNodeWatchEventBench(benchmark::State& state) {
  if (const std::string wrong = CheckWatchLines(); !wrong.empty()) {
    state.SkipWithError(wrong.c_str());
    return;
  }
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
  if (const std::string wrong = CheckWatchLines(); !wrong.empty()) {
    state.SkipWithError(wrong.c_str());
    return;
  }
  const std::vector<std::string>& lines = WatchLines();
  size_t i = 0;
  for (auto _ : state) {
    Result<kube::WatchEvent<kube::NodeInfo>> event =
        kube::DecodeNodeWatchEvent(lines[i++ % lines.size()]);
    benchmark::DoNotOptimize(store.Upsert(*event->object));
  }
  state.SetItemsProcessed(state.iterations());
  // Updates of nodes it holds: the store neither grew nor lost one.
  if (store.size() != kClusterNodes) {
    state.SkipWithError(("the store holds " + std::to_string(store.size()) +
                         " nodes after the updates, not 65000")
                            .c_str());
  }
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
  Result<kube::ListPage<kube::NodeInfo>> decoded = kube::DecodeNodeList(page);
  if (!decoded.ok() || decoded->items.size() != 500 ||
      !decoded->item_errors.empty() || decoded->continue_token != "next" ||
      decoded->items.back().name != "sim-node-500") {
    state.SkipWithError(decoded.ok()
                            ? "the page decoded to other nodes than its 500"
                            : decoded.status().message().c_str());
    return;
  }
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
