// propscaler_pod_count_memory: replica mode's memory and reaction when it
// counts pods (params podsPerReplica, --pod-selector), on the simulated API
// server in process. The same server holds --pods realistic Running pods
// (tests/apiserver/pod_generator.h, about 6 KB of JSON each) that all match
// the selector; propscaler runs twice against it:
//   baseline: params by nodes, no --pod-selector (nothing about pods kept);
//   pods:     params podsPerReplica, --pod-selector matching every pod.
// Per run: VmHWM (peak RSS over the whole run), VmRSS and RssAnon at the
// end; for the pods run also the time to the first scale (a full list of
// the pods) and the reaction to one pod created and deleted, --trials
// times (server's commit -> the scale write arriving).
//
// Exits 1 (and says which) when a replica count is wrong, the pods run's
// anonymous memory exceeds the baseline's by more than --max_added_mib, or
// the median reaction exceeds --max_reaction_ms. The raw result goes to
// --json_out (bench/results/).
//
//   propscaler_pod_count_memory --pods=150000
//   --json_out=bench/results/issue46-pod-count-150000.json
#include <gflags/gflags.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "apiserver/fake_apiserver.h"
#include "apiserver/pod_generator.h"
#include "apiserver/resources.h"
#include "e2e/process.h"
#include "harness/parallel.h"
#include "harness/percentile.h"
#include "harness/proc_stats.h"
#include "harness/result_file.h"

DEFINE_int32(pods, 150000, "Matching Running pods on the server.");
DEFINE_int32(pods_per_replica, 1000, "params' podsPerReplica.");
DEFINE_int32(nodes, 10, "Generated nodes (the baseline counts them).");
DEFINE_int32(trials, 10, "Reaction trials: one pod created, then deleted.");
DEFINE_int32(writer_threads, 4, "Parallel writers creating the pods.");
DEFINE_double(max_added_mib, 32,
              "Target: the pods run's RssAnon at most this much above the "
              "baseline's.");
DEFINE_double(max_reaction_ms, 1000,
              "Target: the median reaction to a pod at most this.");
DEFINE_int32(first_scale_timeout_seconds, 300,
             "How long the pods run may take to its first correct scale "
             "(one list of every pod) before it fails.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");
DEFINE_string(json_out, "", "Where to write the raw result (JSON).");

namespace propscaler::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr char kToken[] = "bench-token";
constexpr char kNamespace[] = "kube-system";
constexpr char kConfigMap[] = "coredns-autoscaler";
constexpr char kSelector[] = "app.kubernetes.io/part-of=shop";

double Mib(int64_t kib) { return static_cast<double>(kib) / 1024.0; }

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

struct Pod {
  std::string ns;
  std::string name;
  std::string json;
};

Pod MakePod(int index) {
  Pod pod{sim::RealisticPodNamespace(index), "",
          sim::MakeRealisticPodJson(
              index, "sim-node-" + std::to_string(1 + index % FLAGS_nodes))};
  rapidjson::Document doc;
  doc.Parse(pod.json.c_str());
  pod.name = doc["metadata"]["name"].GetString();
  return pod;
}

std::string PodsPath(const std::string& ns) {
  return "/api/v1/namespaces/" + ns + "/pods";
}

class Bench {
 public:
  explicit Bench(ResultFile* result) : result_(result) {}

  int Run(std::vector<std::string>* failures) {
    if (Status started = Populate(); !started.ok()) {
      failures->push_back("setting up the server: " + started.message());
      return 1;
    }
    std::optional<ProcStats> baseline = Baseline(failures);
    if (!baseline) return 1;
    std::optional<ProcStats> pods = WithPods(failures);
    if (!pods) return 1;
    const double added = Mib(pods->rss_anon_kib - baseline->rss_anon_kib);
    result_->Add("added_anon_mib", added);
    result_->Add("added_peak_mib",
                 Mib(pods->peak_rss_kib - baseline->peak_rss_kib));
    std::printf("pods %d: RssAnon +%.1f MiB over the baseline (target %.0f)\n",
                FLAGS_pods, added, FLAGS_max_added_mib);
    if (added > FLAGS_max_added_mib) {
      failures->push_back("RssAnon grew " + std::to_string(added) +
                          " MiB over the baseline, above the target " +
                          std::to_string(FLAGS_max_added_mib));
    }
    return failures->empty() ? 0 : 1;
  }

 private:
  Status Populate() {
    sim::FakeApiServerOptions options;
    options.bearer_token = kToken;
    options.generate_nodes = FLAGS_nodes;
    options.history_size = static_cast<size_t>(FLAGS_pods) + 20000;
    Status status = server_.Start(options);
    if (status.ok()) {
      status = server_.CreateWorkload("deployment", kNamespace, "coredns", 1);
    }
    const auto start = Clock::now();
    if (status.ok()) {
      status = ParallelFor(0, FLAGS_pods - 1, FLAGS_writer_threads, [&](int i) {
        const Pod pod = MakePod(i);
        return server_.CreateObject(PodsPath(pod.ns), pod.json);
      });
    }
    std::fprintf(stderr, "created %d pods in %.1fs\n", FLAGS_pods,
                 std::chrono::duration<double>(Clock::now() - start).count());
    kubeconfig_ =
        dir_.Write("kubeconfig", e2e::KubeconfigYaml(server_.url(), kToken));
    return status;
  }

  int64_t Replicas() const {
    Result<int64_t> replicas =
        server_.GetReplicas("deployment", kNamespace, "coredns");
    return replicas.ok() ? *replicas : -1;
  }

  std::unique_ptr<e2e::Process> StartPropscaler(
      const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "--kubeconfig=" + kubeconfig_, std::string("--namespace=") + kNamespace,
        std::string("--configmap=") + kConfigMap, "--target=deployment/coredns",
        "--healthz-port=0"};
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<e2e::Process>(
        FLAGS_propscaler.empty() ? e2e::PropscalerBinary() : FLAGS_propscaler,
        args);
  }

  // Waits for `want` replicas; the seconds it took, or nullopt.
  std::optional<double> AwaitReplicas(int64_t want, std::chrono::seconds limit,
                                      const std::string& run,
                                      std::vector<std::string>* failures) {
    const auto start = Clock::now();
    if (e2e::WaitUntil([&] { return Replicas() == want; }, limit)) {
      return std::chrono::duration<double>(Clock::now() - start).count();
    }
    failures->push_back(run + ": the target has " + std::to_string(Replicas()) +
                        " replicas, not " + std::to_string(want) + ", after " +
                        std::to_string(limit.count()) + " s");
    return std::nullopt;
  }

  std::optional<ProcStats> Final(const e2e::Process& process,
                                 const std::string& run,
                                 std::vector<std::string>* failures) {
    Result<ProcStats> stats = ReadProcStats(process.pid());
    if (!stats.ok()) {
      failures->push_back(run + ": " + stats.status().message());
      return std::nullopt;
    }
    result_->Add(run + "_peak_rss_mib", Mib(stats->peak_rss_kib));
    result_->Add(run + "_rss_mib", Mib(stats->rss_kib));
    result_->Add(run + "_rss_anon_mib", Mib(stats->rss_anon_kib));
    std::printf("%s: VmHWM %.1f MiB, VmRSS %.1f MiB, RssAnon %.1f MiB\n",
                run.c_str(), Mib(stats->peak_rss_kib), Mib(stats->rss_kib),
                Mib(stats->rss_anon_kib));
    return *stats;
  }

  std::optional<ProcStats> Baseline(std::vector<std::string>* failures) {
    Status put = server_.PutConfigMap(kNamespace, kConfigMap,
                                      {{"linear", R"({"nodesPerReplica":1})"}});
    if (!put.ok()) {
      failures->push_back("baseline params: " + put.message());
      return std::nullopt;
    }
    auto propscaler = StartPropscaler({});
    if (!AwaitReplicas(FLAGS_nodes, std::chrono::seconds(60), "baseline",
                       failures)) {
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));
    return Final(*propscaler, "baseline", failures);
  }

  std::optional<ProcStats> WithPods(std::vector<std::string>* failures) {
    Status put = server_.PutConfigMap(
        kNamespace, kConfigMap,
        {{"linear", "{\"podsPerReplica\":" +
                        std::to_string(FLAGS_pods_per_replica) + "}"}});
    if (!put.ok()) {
      failures->push_back("pods params: " + put.message());
      return std::nullopt;
    }
    const int64_t want = CeilDiv(FLAGS_pods, FLAGS_pods_per_replica);
    auto propscaler =
        StartPropscaler({std::string("--pod-selector=") + kSelector});
    std::optional<double> first = AwaitReplicas(
        want, std::chrono::seconds(FLAGS_first_scale_timeout_seconds), "pods",
        failures);
    if (!first) return std::nullopt;
    result_->Add("first_scale_seconds", *first);
    std::printf("pods: first scale to %lld replicas after %.2fs\n",
                static_cast<long long>(want), *first);

    // One pod more crosses a multiple of podsPerReplica when --pods is one.
    const bool crosses = FLAGS_pods % FLAGS_pods_per_replica == 0;
    std::vector<double> reactions;
    for (int trial = 0; trial < FLAGS_trials; ++trial) {
      const Pod pod = MakePod(FLAGS_pods + trial);
      const auto created = Clock::now();
      if (Status s = server_.CreateObject(PodsPath(pod.ns), pod.json);
          !s.ok()) {
        failures->push_back("creating a pod: " + s.message());
        return std::nullopt;
      }
      std::optional<double> up =
          AwaitReplicas(crosses ? want + 1 : want, std::chrono::seconds(10),
                        "pods", failures);
      if (!up) return std::nullopt;
      if (crosses) {
        reactions.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - created)
                .count());
      }
      auto deleted = server_.store().Delete(*sim::FindResourceType("pods"),
                                            pod.ns, pod.name);
      if (!deleted.ok()) {
        failures->push_back("deleting pod " + pod.ns + "/" + pod.name + ": " +
                            deleted.error().ToStatus().message());
        return std::nullopt;
      }
      if (!AwaitReplicas(want, std::chrono::seconds(10), "pods", failures)) {
        return std::nullopt;
      }
    }
    if (!reactions.empty()) {
      const double median = Percentile(reactions, 0.5);
      result_->Add("reaction_median_ms", median);
      result_->Add("reaction_trials", static_cast<int>(reactions.size()));
      std::printf(
          "pods: reaction to one pod, median %.0f ms of %zu trials "
          "(target %.0f)\n",
          median, reactions.size(), FLAGS_max_reaction_ms);
      if (median > FLAGS_max_reaction_ms) {
        failures->push_back("median reaction " + std::to_string(median) +
                            " ms above the target " +
                            std::to_string(FLAGS_max_reaction_ms));
      }
    }
    return Final(*propscaler, "pods", failures);
  }

  ResultFile* result_;
  sim::FakeApiServer server_;
  e2e::TempDir dir_;
  std::string kubeconfig_;
};

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  // As typed, for the result file: the flag parser takes the flags out.
  propscaler::bench::ResultFile result(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  result.SetBinary(FLAGS_propscaler.empty()
                       ? std::string(propscaler::e2e::PropscalerBinary())
                       : FLAGS_propscaler);
  result.Add("server", "simulated");
  result.Add("pods", FLAGS_pods);
  result.Add("pods_per_replica", FLAGS_pods_per_replica);
  std::vector<std::string> failures;
  propscaler::bench::Bench bench(&result);
  const int code = bench.Run(&failures);
  if (code != 0 && failures.empty())
    failures.push_back("exited " + std::to_string(code));
  for (const std::string& failure : failures) {
    std::cerr << "FAILED: " << failure << "\n";
  }
  if (propscaler::Status s = result.Write(FLAGS_json_out, failures); !s.ok()) {
    std::cerr << s.message() << "\n";
    return 1;
  }
  return failures.empty() ? 0 : 1;
}
