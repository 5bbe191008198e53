// propscaler_scale_harness: starts the simulated API server in process with
// N generated nodes, runs the real propscaler binary against it several
// times per N, and prints each run's figures and their medians (see
// bench/README.md for what each figure means and how it is measured).
//
//   propscaler_scale_harness --nodes=1000,65000 --runs=3
#include <gflags/gflags.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "apiserver/fake_apiserver.h"
#include "e2e/process.h"
#include "harness/percentile.h"
#include "harness/scale_run.h"

DEFINE_string(nodes, "1000,5000,20000,65000", "Cluster sizes, comma list.");
DEFINE_int32(runs, 3, "Runs of propscaler per size; medians are reported.");
DEFINE_int32(heartbeat_rounds, 12,
             "Status updates per node after the first scale (12: an hour "
             "of the kubelet's 5-minute status reports).");
DEFINE_int32(reaction_trials, 100, "Ready -> scale trials per run.");
DEFINE_int32(reaction_quiet_ms, 500,
             "Milliseconds between a trial's scale-down and turning the node "
             "Ready again; 0 measures back-to-back changes, which wait out "
             "the 250 ms coalescing window.");
DEFINE_int32(steady_seconds, 60, "Window for counting requests at rest.");
DEFINE_bool(watch_list, true,
            "Serve WatchList as Kubernetes 1.32+ does; false: refuse it as "
            "kube-apiserver 1.20 does, so lists come in pages.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");
DEFINE_string(propscaler_env, "",
              "NAME=VALUE settings for propscaler's environment, "
              "space-separated, e.g. MALLOC_ARENA_MAX=2.");
DEFINE_string(propscaler_args, "",
              "Extra flags for propscaler, space-separated.");

namespace propscaler::bench {
namespace {

constexpr char kToken[] = "bench-token";

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

Status StartCluster(sim::FakeApiServer* server, int nodes) {
  sim::FakeApiServerOptions options;
  options.bearer_token = kToken;
  options.generate_nodes = nodes;
  options.history_size = static_cast<size_t>(nodes) + 20000;
  options.watch_list = FLAGS_watch_list ? sim::WatchListSupport::kSupported
                                        : sim::WatchListSupport::kBefore;
  Status status = server->Start(options);
  if (status.ok()) {
    status = server->CreateWorkload("deployment", kNamespace, kDeployment, 1);
  }
  if (status.ok()) {
    status = server->PutConfigMap(kNamespace, kConfigMap,
                                  {{"linear", R"({"nodesPerReplica":1})"}});
  }
  return status;
}

double Median(const std::vector<ScaleRunResult>& runs,
              double (*figure)(const ScaleRunResult&)) {
  std::vector<double> values;
  for (const ScaleRunResult& run : runs) values.push_back(figure(run));
  return Percentile(values, 0.5);
}

double MiB(int64_t kib) { return static_cast<double>(kib) / 1024; }

double RequestsPerHour(const ScaleRunResult& run) {
  return static_cast<double>(run.steady_total) * 3600 /
         static_cast<double>(run.steady_window.count());
}

void PrintRun(int nodes, int index, const ScaleRunResult& run) {
  std::printf(
      "nodes=%d run=%d list_send=%.3fs first_scale=%.3fs ratio=%.2f "
      "peak_rss_list=%.1fMiB rss_list=%.1fMiB (anon %.1f, files %.1f) "
      "peak_rss_events=%.1fMiB rss_events=%.1fMiB (anon %.1f) events=%lld "
      "cpu=%.2fs events_per_cpu_s=%.0f "
      "relists=%lld reaction_p50=%.1fms p99=%.1fms at_rest=%lld in %llds\n",
      nodes, index, run.list_send_seconds, run.first_scale_seconds,
      run.first_scale_seconds / run.list_send_seconds,
      MiB(run.peak_rss_after_list_kib), MiB(run.rss_after_list_kib),
      MiB(run.anon_after_list_kib), MiB(run.file_after_list_kib),
      MiB(run.peak_rss_after_events_kib), MiB(run.rss_after_events_kib),
      MiB(run.anon_after_events_kib),
      static_cast<long long>(run.heartbeat_events), run.heartbeat_cpu_seconds,
      run.heartbeat_events / std::max(run.heartbeat_cpu_seconds, 1e-9),
      static_cast<long long>(run.relists), Percentile(run.reaction_ms, 0.5),
      Percentile(run.reaction_ms, 0.99),
      static_cast<long long>(run.steady_total),
      static_cast<long long>(run.steady_window.count()));
  for (const auto& [request, count] : run.steady_requests) {
    std::printf("  at rest: %lld x %s\n", static_cast<long long>(count),
                request.c_str());
  }
  std::fflush(stdout);
}

void PrintSummary(int nodes, const std::vector<ScaleRunResult>& runs) {
  std::vector<double> reactions;
  for (const ScaleRunResult& run : runs) {
    reactions.insert(reactions.end(), run.reaction_ms.begin(),
                     run.reaction_ms.end());
  }
  std::printf(
      "| %d | %.3f s | %.3f s | %.2f | %.1f MiB | %.1f MiB | %.1f MiB | "
      "%.0f / %.0f ms (%zu trials) | %.0f /h | %.0f /s |\n",
      nodes,
      Median(runs, [](const ScaleRunResult& r) { return r.list_send_seconds; }),
      Median(runs,
             [](const ScaleRunResult& r) { return r.first_scale_seconds; }),
      Median(runs,
             [](const ScaleRunResult& r) {
               return r.first_scale_seconds / r.list_send_seconds;
             }),
      Median(runs,
             [](const ScaleRunResult& r) {
               return MiB(r.peak_rss_after_list_kib);
             }),
      Median(runs,
             [](const ScaleRunResult& r) {
               return MiB(r.peak_rss_after_events_kib);
             }),
      Median(
          runs,
          [](const ScaleRunResult& r) { return MiB(r.rss_after_events_kib); }),
      Percentile(reactions, 0.5), Percentile(reactions, 0.99), reactions.size(),
      Median(runs, &RequestsPerHour), Median(runs, [](const ScaleRunResult& r) {
        return r.heartbeat_events / std::max(r.heartbeat_cpu_seconds, 1e-9);
      }));
  std::fflush(stdout);
}

// Every run of one cluster size; false when one failed.
bool MeasureSize(int nodes, const e2e::TempDir& dir) {
  sim::FakeApiServer server;
  if (Status status = StartCluster(&server, nodes); !status.ok()) {
    std::cerr << "starting the cluster: " << status.message() << std::endl;
    return false;
  }
  ScaleRunOptions options;
  options.nodes = nodes;
  options.binary =
      FLAGS_propscaler.empty() ? e2e::PropscalerBinary() : FLAGS_propscaler;
  options.kubeconfig = dir.Write("kubeconfig-" + std::to_string(nodes),
                                 e2e::KubeconfigYaml(server.url(), kToken));
  options.extra_args = Split(FLAGS_propscaler_args, ' ');
  options.env = Split(FLAGS_propscaler_env, ' ');
  options.heartbeat_rounds = FLAGS_heartbeat_rounds;
  options.reaction_trials = FLAGS_reaction_trials;
  options.reaction_quiet = std::chrono::milliseconds(FLAGS_reaction_quiet_ms);
  options.steady_window = std::chrono::seconds(FLAGS_steady_seconds);
  std::vector<ScaleRunResult> runs;
  for (int run = 1; run <= FLAGS_runs; ++run) {
    Result<ScaleRunResult> result = RunScale(&server, options);
    if (!result.ok()) {
      std::cerr << "nodes=" << nodes << " run=" << run << ": "
                << result.status().message() << std::endl;
      return false;
    }
    PrintRun(nodes, run, *result);
    runs.push_back(*std::move(result));
  }
  PrintSummary(nodes, runs);
  return true;
}

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  propscaler::e2e::TempDir dir;
  std::printf(
      "| nodes | list send | first scale | ratio | peak RSS after list | "
      "peak RSS after events | RSS after events | reaction p50 / p99 | "
      "requests at rest | events per CPU-second |\n");
  bool ok = true;
  for (const std::string& nodes : propscaler::bench::Split(FLAGS_nodes, ',')) {
    ok = propscaler::bench::MeasureSize(std::atoi(nodes.c_str()), dir) && ok;
  }
  return ok ? 0 : 1;
}
