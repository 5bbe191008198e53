// propscaler_nodescale_memory: node-scale mode's memory at cluster scale.
// Starts the simulated API server in process with N generated nodes and P
// running pods spread over them (realistic pods, apiserver/pod_generator.h,
// or tiny ones with --tiny_pods), runs the real propscaler binary in
// --mode=node-scale against it, waits for `--loops` loops (each one after
// the pods and nodes were listed and watched), and prints its peak and
// current resident size (see bench/README.md).
//
//   propscaler_nodescale_memory --nodes=1000 --pods=30000
#include <gflags/gflags.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "apiserver/fake_apiserver.h"
#include "apiserver/pod_generator.h"
#include "apiserver/store_objects.h"
#include "e2e/process.h"
#include "harness/metrics_scrape.h"
#include "harness/proc_stats.h"

DEFINE_int32(nodes, 1000, "Generated nodes.");
DEFINE_int32(pods, 30000, "Running pods, spread evenly over the nodes.");
DEFINE_bool(tiny_pods, false,
            "Pods of one container, no labels or annotations (~0.6 KB) "
            "instead of realistic ones (~6 KB).");
DEFINE_int32(loops, 3, "Node-scale loops to wait for before measuring.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");

namespace propscaler::bench {
namespace {

constexpr char kToken[] = "bench-token";
constexpr char kNamespace[] = "kube-system";
constexpr char kGroups[] = "node-groups";

Status Populate(sim::FakeApiServer* server, size_t* pod_bytes) {
  Status status =
      sim::PutNodeGroups(server->store(), kNamespace, kGroups,
                         {sim::GroupJson("pool", 0, 2000, "4", "16Gi")});
  for (int i = 0; status.ok() && i < FLAGS_pods; ++i) {
    const std::string node = "sim-node-" + std::to_string(1 + i % FLAGS_nodes);
    const std::string json =
        FLAGS_tiny_pods ? sim::PodJson("pod-" + std::to_string(i), "100m", node)
                        : sim::MakeRealisticPodJson(i, node);
    *pod_bytes += json.size();
    const std::string ns =
        FLAGS_tiny_pods ? "default" : sim::RealisticPodNamespace(i);
    status = server->CreateObject("/api/v1/namespaces/" + ns + "/pods", json);
  }
  return status;
}

// The count of node-scale loops run so far, from propscaler's /metrics.
int64_t LoopsRun(int port) {
  constexpr char kLoops[] = "propscaler_node_scale_loop_duration_seconds_count";
  Result<std::map<std::string, int64_t>> values = ScrapeMetrics(port, {kLoops});
  return values.ok() ? (*values)[kLoops] : 0;
}

int Measure() {
  sim::FakeApiServer server;
  sim::FakeApiServerOptions options;
  options.bearer_token = kToken;
  options.generate_nodes = FLAGS_nodes;
  options.generated_node_cores = 4;
  options.history_size = static_cast<size_t>(FLAGS_pods) + 20000;
  size_t pod_bytes = 0;
  Status status = server.Start(options);
  if (status.ok()) status = Populate(&server, &pod_bytes);
  if (!status.ok()) {
    std::cerr << "starting the cluster: " << status.message() << "\n";
    return 1;
  }
  e2e::TempDir dir;
  const std::string kubeconfig =
      dir.Write("kubeconfig", e2e::KubeconfigYaml(server.url(), kToken));
  const int port = e2e::FreePort();
  const auto start = std::chrono::steady_clock::now();
  e2e::Process propscaler(
      FLAGS_propscaler.empty() ? e2e::PropscalerBinary() : FLAGS_propscaler,
      {"--mode=node-scale", "--kubeconfig=" + kubeconfig,
       std::string("--namespace=") + kNamespace, "--cloud-provider=kwok",
       std::string("--node-group-config=") + kGroups, "--scan-interval=2s",
       "--healthz-port=" + std::to_string(port), "--leader-elect=false"});
  const bool looped = e2e::WaitUntil(
      [&] { return LoopsRun(port) >= FLAGS_loops || !propscaler.Running(); },
      std::chrono::minutes(5));
  Result<ProcStats> stats = ReadProcStats(propscaler.pid());
  if (!looped || !stats.ok() || LoopsRun(port) < FLAGS_loops) {
    std::cerr << "propscaler did not run " << FLAGS_loops
              << " loops: " << propscaler.Report() << "\n";
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  auto mib = [](int64_t kib) { return static_cast<double>(kib) / 1024; };
  std::printf(
      "nodes=%d pods=%d (%s, %.1f KB of JSON each) loops=%d in %.1fs: "
      "peak RSS %.1f MiB, RSS %.1f MiB (anon %.1f, files %.1f), "
      "%.0f bytes of anon RSS per pod\n",
      FLAGS_nodes, FLAGS_pods, FLAGS_tiny_pods ? "tiny" : "realistic",
      static_cast<double>(pod_bytes) / FLAGS_pods / 1000, FLAGS_loops, seconds,
      mib(stats->peak_rss_kib), mib(stats->rss_kib), mib(stats->rss_anon_kib),
      mib(stats->rss_file_kib),
      static_cast<double>(stats->rss_anon_kib) * 1024 / FLAGS_pods);
  return 0;
}

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return propscaler::bench::Measure();
}
