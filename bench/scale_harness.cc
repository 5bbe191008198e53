// propscaler_scale_harness: a cluster of N generated nodes, on the simulated
// API server in process or on the real kube-apiserver of ../shared/envtest,
// the real propscaler binary run against it several times per N, and each
// run's figures and their medians printed (see bench/README.md for what each
// figure means and how it is measured).
//
//   propscaler_scale_harness --nodes=1000,65000 --runs=3
//   propscaler_scale_harness --server=real --rbac=cpa --nodes=1000
//   propscaler_scale_harness --server=real
//   --cpa=build-perf/cpa/cluster-proportional-autoscaler
#include <gflags/gflags.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "checks/scale_targets.h"
#include "e2e/process.h"
#include "harness/percentile.h"
#include "harness/real_bench_cluster.h"
#include "harness/result_file.h"
#include "harness/scale_run.h"
#include "harness/simulated_bench_cluster.h"

DEFINE_string(server, "simulated",
              "simulated: the API server of tests/apiserver in process; "
              "real: kube-apiserver v1.20.2 and etcd (../shared/envtest), "
              "one cluster grown from size to size.");
DEFINE_string(rbac, "ours",
              "propscaler's RBAC, a comma list measured one after the other "
              "on the same cluster at each size: ours "
              "(deploy/replicas/rbac.yaml: it watches) or, with "
              "--server=real, cpa (CPA's example RBAC: it polls).");
DEFINE_string(envtest_dir, PROPSCALER_ENVTEST_DIR,
              "With --server=real: the folder of kube-apiserver-v1.20.2.xz.");
DEFINE_int32(writer_threads, 8,
             "Parallel writers for node creation and heartbeats.");
DEFINE_string(nodes, "1000,5000,20000,65000",
              "Cluster sizes, comma list, smallest first.");
DEFINE_int32(runs, 3, "Runs of propscaler per size; medians are reported.");
DEFINE_int32(heartbeat_rounds, 12,
             "Status updates per node after the first scale (12: an hour "
             "of the kubelet's 5-minute status reports).");
DEFINE_int32(reaction_trials, 100, "Ready -> scale trials per run.");
DEFINE_int32(reaction_quiet_jitter_ms, 0,
             "Up to this many more milliseconds of quiet, at random per "
             "trial: 10000 makes a 10 s poller (CPA) meet each change at a "
             "random point of its period.");
DEFINE_int32(reaction_quiet_ms, 500,
             "Milliseconds between a trial's scale-down and turning the node "
             "Ready again; 0 measures back-to-back changes, which wait out "
             "the 250 ms coalescing window.");
DEFINE_int32(steady_seconds, 60, "Window for counting requests at rest.");
DEFINE_bool(watch_list, true,
            "Simulated server: serve WatchList as Kubernetes 1.32+ does; "
            "false: refuse it as kube-apiserver 1.20 does (the real one here "
            "always refuses it), so lists come in pages.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");
DEFINE_string(cpa, "",
              "With --server=real: a cluster-proportional-autoscaler binary "
              "(bench/build-cpa.sh) measured after propscaler at each size, "
              "under CPA's example RBAC, as a pod runs it (needs root and "
              "port 8080 free).");
DEFINE_string(propscaler_env, "",
              "NAME=VALUE settings for propscaler's environment, "
              "space-separated, e.g. MALLOC_ARENA_MAX=2.");
DEFINE_string(propscaler_args, "",
              "Extra flags for propscaler, space-separated.");
DEFINE_double(max_first_scale_to_cpa, 2.0 / 3,
              "With --cpa: propscaler's first correct scale over CPA's, at "
              "most (checks/scale_targets.h).");
DEFINE_double(max_reaction_p50_to_cpa, 0.1,
              "With --cpa: propscaler's median reaction over CPA's, at most.");
DEFINE_double(max_peak_rss_to_cpa, 0.05,
              "With --cpa: propscaler's peak RSS over CPA's, at most, from "
              "--peak_rss_to_cpa_from_nodes on.");
DEFINE_int32(peak_rss_to_cpa_from_nodes, 20000,
             "With --cpa: the smallest size whose peak RSS ratio is held.");
DEFINE_double(max_reaction_p99_ms, 1000,
              "Target: each size's reaction p99 (README: sub-second).");
DEFINE_double(max_requests_at_rest_per_hour, 60,
              "Target under our RBAC: requests at rest an hour "
              "(docs/replica-mode.md: nothing polled at rest), every one a "
              "watch.");
DEFINE_string(json_out, "",
              "Where to write the raw result (JSON, bench/results/): each "
              "size's medians, under \"sizes\".");

namespace propscaler::bench {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
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

void PrintRun(int nodes, const std::string& rbac, int index,
              const ScaleRunResult& run) {
  std::printf(
      "nodes=%d rbac=%s run=%d list_send=%.3fs cache_send=%.3fs "
      "list_bytes=%lld wire_bytes=%lld "
      "(1/%.1f) connections=%lld first_scale=%.3fs ratio=%.2f "
      "ratio_to_cache_send=%.2f "
      "peak_rss_list=%.1fMiB rss_list=%.1fMiB (anon %.1f, files %.1f) "
      "peak_rss_events=%.1fMiB rss_events=%.1fMiB (anon %.1f) events=%lld "
      "cpu=%.2fs events_per_cpu_s=%.0f "
      "relists=%lld first_write=%lld (%lld writes to it) reaction_p50=%.1fms "
      "%s=%.1fms at_rest=%lld in %llds "
      "(new connections %lld)\n",
      nodes, rbac.c_str(), index, run.list_send_seconds, run.cache_send_seconds,
      static_cast<long long>(run.list_bytes),
      static_cast<long long>(run.first_scale_wire_bytes),
      static_cast<double>(run.list_bytes) /
          std::max<double>(static_cast<double>(run.first_scale_wire_bytes), 1),
      static_cast<long long>(run.first_scale_connections),
      run.first_scale_seconds, run.first_scale_seconds / run.list_send_seconds,
      run.first_scale_seconds / run.cache_send_seconds,
      MiB(run.peak_rss_after_list_kib), MiB(run.rss_after_list_kib),
      MiB(run.anon_after_list_kib), MiB(run.file_after_list_kib),
      MiB(run.peak_rss_after_events_kib), MiB(run.rss_after_events_kib),
      MiB(run.anon_after_events_kib),
      static_cast<long long>(run.heartbeat_events), run.heartbeat_cpu_seconds,
      run.heartbeat_events / std::max(run.heartbeat_cpu_seconds, 1e-9),
      static_cast<long long>(run.relists),
      static_cast<long long>(run.first_scale_replicas),
      static_cast<long long>(run.scale_writes_to_target),
      Percentile(run.reaction_ms, 0.5),
      P99Name(static_cast<int64_t>(run.reaction_ms.size())).c_str(),
      Percentile(run.reaction_ms, 0.99),
      static_cast<long long>(run.steady_total),
      static_cast<long long>(run.steady_window.count()),
      static_cast<long long>(run.steady_connections));
  for (const auto& [request, count] : run.steady_requests) {
    std::printf("  at rest: %lld x %s\n", static_cast<long long>(count),
                request.c_str());
  }
  std::fflush(stdout);
}

// One size's medians as a JSON object, for the result file.
std::string SummaryJson(int nodes, const std::string& rbac,
                        const std::vector<ScaleRunResult>& runs) {
  std::vector<double> reactions;
  for (const ScaleRunResult& run : runs) {
    reactions.insert(reactions.end(), run.reaction_ms.begin(),
                     run.reaction_ms.end());
  }
  auto median = [&](double (*figure)(const ScaleRunResult&)) {
    return std::to_string(Median(runs, figure));
  };
  return "{\"nodes\":" + std::to_string(nodes) +
         ",\"rbac\":" + JsonQuoted(rbac) +
         ",\"runs\":" + std::to_string(runs.size()) + ",\"list_send_s\":" +
         median([](const ScaleRunResult& r) { return r.list_send_seconds; }) +
         ",\"first_scale_s\":" +
         median([](const ScaleRunResult& r) { return r.first_scale_seconds; }) +
         ",\"peak_rss_after_list_mib\":" + median([](const ScaleRunResult& r) {
           return MiB(r.peak_rss_after_list_kib);
         }) +
         ",\"peak_rss_after_events_mib\":" +
         median([](const ScaleRunResult& r) {
           return MiB(r.peak_rss_after_events_kib);
         }) +
         ",\"anon_after_events_mib\":" + median([](const ScaleRunResult& r) {
           return MiB(r.anon_after_events_kib);
         }) +
         ",\"reaction_p50_ms\":" + std::to_string(Percentile(reactions, 0.5)) +
         ",\"reaction_p99_ms\":" + std::to_string(Percentile(reactions, 0.99)) +
         ",\"reaction_trials\":" + std::to_string(reactions.size()) +
         ",\"reaction_p99_is\":" +
         JsonQuoted(P99Name(static_cast<int64_t>(reactions.size()))) +
         ",\"first_scale_replicas\":" +
         std::to_string(runs.front().first_scale_replicas) +
         ",\"scale_writes_to_target\":" + median([](const ScaleRunResult& r) {
           return static_cast<double>(r.scale_writes_to_target);
         }) +
         ",\"requests_at_rest_per_hour\":" + median(&RequestsPerHour) +
         ",\"events_per_cpu_s\":" + median([](const ScaleRunResult& r) {
           return r.heartbeat_events / std::max(r.heartbeat_cpu_seconds, 1e-9);
         }) +
         "}";
}

void PrintSummary(int nodes, const std::string& rbac,
                  const std::vector<ScaleRunResult>& runs) {
  std::vector<double> reactions;
  for (const ScaleRunResult& run : runs) {
    reactions.insert(reactions.end(), run.reaction_ms.begin(),
                     run.reaction_ms.end());
  }
  // CPA counts no bytes.
  char wire[32] = "-";
  if (runs.front().first_scale_wire_bytes >= 0) {
    std::snprintf(
        wire, sizeof wire, "1/%.0f", Median(runs, [](const ScaleRunResult& r) {
          return static_cast<double>(r.list_bytes) /
                 std::max<double>(static_cast<double>(r.first_scale_wire_bytes),
                                  1);
        }));
  }
  std::printf(
      "| %d | %s | %.3f s | %.3f s | %s | %.3f s | %.2f | %.1f MiB | "
      "%.1f MiB | %.1f MiB | "
      "%.0f / %.0f ms (%s of %zu trials) | %.0f /h | %.0f /s |\n",
      nodes, rbac.c_str(),
      Median(runs, [](const ScaleRunResult& r) { return r.list_send_seconds; }),
      Median(runs,
             [](const ScaleRunResult& r) { return r.cache_send_seconds; }),
      wire,
      Median(runs,
             [](const ScaleRunResult& r) { return r.first_scale_seconds; }),
      Median(runs,
             [](const ScaleRunResult& r) {
               return r.first_scale_seconds / r.cache_send_seconds;
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
      Percentile(reactions, 0.5), Percentile(reactions, 0.99),
      P99Name(static_cast<int64_t>(reactions.size())).c_str(), reactions.size(),
      Median(runs, &RequestsPerHour), Median(runs, [](const ScaleRunResult& r) {
        return r.heartbeat_events / std::max(r.heartbeat_cpu_seconds, 1e-9);
      }));
  std::fflush(stdout);
}

ScaleFigures FiguresOf(int nodes, const std::string& rbac,
                       const std::vector<ScaleRunResult>& runs) {
  ScaleFigures figures;
  figures.nodes = nodes;
  figures.rbac = rbac;
  std::vector<double> reactions;
  for (const ScaleRunResult& run : runs) {
    reactions.insert(reactions.end(), run.reaction_ms.begin(),
                     run.reaction_ms.end());
    for (const auto& [request, count] : run.steady_requests) {
      figures.requests_at_rest[request] += count;
    }
  }
  figures.reaction_p99_ms = Percentile(reactions, 0.99);
  figures.reaction_trials = static_cast<int64_t>(reactions.size());
  figures.reaction_trials_asked =
      static_cast<int64_t>(runs.size()) * FLAGS_reaction_trials;
  figures.requests_at_rest_per_hour = Median(runs, &RequestsPerHour);
  figures.reaction_p50_ms = Percentile(reactions, 0.5);
  figures.first_scale_s = Median(
      runs, [](const ScaleRunResult& r) { return r.first_scale_seconds; });
  figures.peak_rss_mib = Median(runs, [](const ScaleRunResult& r) {
    return MiB(r.peak_rss_after_events_kib);
  });
  return figures;
}

// Every run of one cluster size under one RBAC (of propscaler, or of CPA
// with `cpa_binary`), its medians added to `sizes` and what misses its
// targets to `failures`; false when a run failed.
bool MeasureSize(BenchCluster* cluster, int nodes, const std::string& rbac,
                 std::vector<std::string>* sizes, Failures* failures,
                 ScaleFigures* figures, const std::string& cpa_binary = "") {
  ScaleRunOptions options;
  options.nodes = nodes;
  options.rbac = rbac;
  options.cpa_binary = cpa_binary;
  const std::string label = cpa_binary.empty() ? rbac : "CPA itself";
  options.binary =
      FLAGS_propscaler.empty() ? e2e::PropscalerBinary() : FLAGS_propscaler;
  options.writer_threads = FLAGS_writer_threads;
  options.extra_args = Split(FLAGS_propscaler_args, ' ');
  options.env = Split(FLAGS_propscaler_env, ' ');
  options.heartbeat_rounds = FLAGS_heartbeat_rounds;
  options.reaction_trials = FLAGS_reaction_trials;
  options.reaction_quiet = std::chrono::milliseconds(FLAGS_reaction_quiet_ms);
  options.reaction_quiet_jitter =
      std::chrono::milliseconds(FLAGS_reaction_quiet_jitter_ms);
  options.steady_window = std::chrono::seconds(FLAGS_steady_seconds);
  std::vector<ScaleRunResult> runs;
  for (int run = 1; run <= FLAGS_runs; ++run) {
    Result<ScaleRunResult> result = RunScale(cluster, options);
    if (!result.ok()) {
      std::cerr << "nodes=" << nodes << " rbac=" << label << " run=" << run
                << ": " << result.status().message() << std::endl;
      return false;
    }
    PrintRun(nodes, label, run, *result);
    runs.push_back(*std::move(result));
  }
  PrintSummary(nodes, label, runs);
  sizes->push_back(SummaryJson(nodes, label, runs));
  *figures = FiguresOf(nodes, label, runs);
  for (std::string& failure : ScaleTargetFailures(
           *figures,
           {FLAGS_max_reaction_p99_ms, FLAGS_max_requests_at_rest_per_hour})) {
    std::cerr << "target missed: " << failure << std::endl;
    failures->push_back(std::move(failure));
  }
  return true;
}

// Each of propscaler's sizes (under its own RBAC: CPA's polls by design)
// against CPA's at the same size, in this run.
void HoldRatiosToCpa(const std::vector<ScaleFigures>& ours,
                     const ScaleFigures& cpa, Failures* failures) {
  const CpaRatioTargets targets{
      FLAGS_max_first_scale_to_cpa, FLAGS_max_reaction_p50_to_cpa,
      FLAGS_max_peak_rss_to_cpa, FLAGS_peak_rss_to_cpa_from_nodes};
  for (const ScaleFigures& figures : ours) {
    if (figures.rbac != "ours") continue;
    for (std::string& failure : CpaRatioFailures(figures, cpa, targets)) {
      std::cerr << "target missed: " << failure << std::endl;
      failures->push_back(std::move(failure));
    }
  }
}

std::unique_ptr<BenchCluster> MakeCluster() {
  if (FLAGS_server == "simulated" && FLAGS_cpa.empty()) {
    return std::make_unique<SimulatedBenchCluster>(FLAGS_watch_list);
  }
  if (FLAGS_server == "simulated") {
    std::cerr << "--cpa needs --server=real (CPA needs a server with TLS and "
                 "service accounts)\n";
    return nullptr;
  }
  if (FLAGS_server != "real") {
    std::cerr << "--server=" << FLAGS_server << ": want simulated or real\n";
    return nullptr;
  }
  Result<std::unique_ptr<RealBenchCluster>> real =
      RealBenchCluster::Start({.envtest_dir = FLAGS_envtest_dir,
                               .unpack_dir = PROPSCALER_ENVTEST_UNPACK_DIR,
                               .source_dir = PROPSCALER_SOURCE_DIR,
                               .create_threads = FLAGS_writer_threads});
  if (!real.ok()) {
    std::cerr << "starting the real cluster: " << real.status().message()
              << "\n";
    return nullptr;
  }
  return std::move(*real);
}

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  // As typed, for the result file: the flag parser takes the flags out.
  propscaler::bench::ResultFile result(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  result.SetBinary(FLAGS_propscaler.empty()
                       ? std::string(propscaler::e2e::PropscalerBinary())
                       : FLAGS_propscaler);
  std::unique_ptr<propscaler::bench::BenchCluster> cluster =
      propscaler::bench::MakeCluster();
  if (cluster == nullptr) return 2;
  std::printf("server: %s\n", cluster->ServerName().c_str());
  std::printf(
      "| nodes | RBAC | list send (JSON pages, etcd) | cache send (one "
      "protobuf list, resourceVersion=0) | wire / list bytes | first scale | "
      "ratio to cache send | "
      "peak RSS after list | "
      "peak RSS after events | RSS after events | reaction p50 / p99 | "
      "requests at rest | events per CPU-second |\n");
  bool ok = true;
  std::vector<std::string> sizes;
  propscaler::bench::Failures failures;
  for (const std::string& text : propscaler::bench::Split(FLAGS_nodes, ',')) {
    const int nodes = std::atoi(text.c_str());
    if (propscaler::Status grown = cluster->GrowTo(nodes); !grown.ok()) {
      std::cerr << "growing the cluster to " << nodes
                << " nodes: " << grown.message() << std::endl;
      return 1;
    }
    std::vector<propscaler::bench::ScaleFigures> ours;
    for (const std::string& rbac : propscaler::bench::Split(FLAGS_rbac, ',')) {
      ok = propscaler::bench::MeasureSize(cluster.get(), nodes, rbac, &sizes,
                                          &failures, &ours.emplace_back()) &&
           ok;
    }
    propscaler::bench::ScaleFigures cpa;
    if (!FLAGS_cpa.empty() &&
        propscaler::bench::MeasureSize(cluster.get(), nodes, "cpa", &sizes,
                                       &failures, &cpa, FLAGS_cpa)) {
      propscaler::bench::HoldRatiosToCpa(ours, cpa, &failures);
    } else if (!FLAGS_cpa.empty()) {
      ok = false;
    }
  }
  std::string json;
  for (const std::string& size : sizes) {
    json += (json.empty() ? "" : ",") + size;
  }
  result.Add("server", cluster->ServerName());
  result.AddJson("sizes", "[" + json + "]");
  result.AddJson(
      "targets",
      "{\"max_reaction_p99_ms\":" + std::to_string(FLAGS_max_reaction_p99_ms) +
          ",\"max_requests_at_rest_per_hour\":" +
          std::to_string(FLAGS_max_requests_at_rest_per_hour) +
          (FLAGS_cpa.empty()
               ? std::string()
               : ",\"max_first_scale_to_cpa\":" +
                     std::to_string(FLAGS_max_first_scale_to_cpa) +
                     ",\"max_reaction_p50_to_cpa\":" +
                     std::to_string(FLAGS_max_reaction_p50_to_cpa) +
                     ",\"max_peak_rss_to_cpa\":" +
                     std::to_string(FLAGS_max_peak_rss_to_cpa) +
                     ",\"peak_rss_to_cpa_from_nodes\":" +
                     std::to_string(FLAGS_peak_rss_to_cpa_from_nodes)) +
          "}");
  if (!ok) failures.push_back("a run failed (its error is on stderr)");
  if (propscaler::Status s = result.Write(FLAGS_json_out, failures); !s.ok()) {
    std::cerr << s.message() << "\n";
    return 1;
  }
  return failures.empty() ? 0 : 1;
}
