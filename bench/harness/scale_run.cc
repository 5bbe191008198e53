#include "harness/scale_run.h"

#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <thread>

#include "common/files.h"
#include "e2e/process.h"
#include "harness/metrics_scrape.h"
#include "harness/parallel.h"
#include "harness/proc_stats.h"
#include "harness/replicas_watch.h"
#include "transport/api.h"

namespace propscaler::bench {
namespace {

constexpr std::chrono::milliseconds kNoQuiet{0};

using Clock = std::chrono::steady_clock;
using e2e::Process;

const std::string kScalePath = std::string(" /apis/apps/v1/namespaces/") +
                               kNamespace + "/deployments/" + kDeployment +
                               "/scale";

// A write of the scale: an update (PUT) under the resourceVersion read, or
// a merge patch where RBAC forbids updates.
bool IsScaleWrite(const std::string& verb_and_path) {
  return verb_and_path == "PUT" + kScalePath ||
         verb_and_path == "PATCH" + kScalePath;
}

double SecondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::string NodeName(int index) { return "sim-node-" + std::to_string(index); }

// A kubelet's status update: the four conditions with a new heartbeat time.
// Each heartbeat's time differs from every earlier one of this process
// (for 35,000 calls): a real server sends no event for an update that
// changes nothing.
std::string ConditionsPatch(bool ready) {
  static std::atomic<int> sent{0};
  const int n = sent++;
  auto two_digits = [](int value) { return std::to_string(10 + value % 50); };
  const std::string time = "2024-05-01T" + two_digits(n / 2500 % 14) + ":" +
                           two_digits(n / 50) + ":" + two_digits(n) + "Z";
  auto condition = [&](const char* type, const char* status) {
    return std::string("{\"type\":\"") + type + "\",\"status\":\"" + status +
           "\",\"lastHeartbeatTime\":\"" + time +
           "\",\"lastTransitionTime\":\"2024-05-01T08:00:00Z\"}";
  };
  return "{\"status\":{\"conditions\":[" +
         condition("MemoryPressure", "False") + "," +
         condition("DiskPressure", "False") + "," +
         condition("PIDPressure", "False") + "," +
         condition("Ready", ready ? "True" : "False") + "]}}";
}

// The value of "continue" in a list body's metadata, without decoding it.
std::string ContinueToken(const std::string& body) {
  constexpr std::string_view kKey = "\"continue\":\"";
  const size_t start = body.find(kKey);
  if (start == std::string::npos) return "";
  const size_t from = start + kKey.size();
  return body.substr(from, body.find('"', from) - from);
}

struct ListSend {
  double seconds = 0;
  int64_t bytes = 0;  // inflated: what a client without gzip receives
};

// How long a client that decodes nothing takes to receive every page: of
// the newest version from etcd as JSON, or (`any_version`) the watch
// cache's whole list as propscaler asks for it (protobuf where served).
Result<ListSend> TimeListSend(const kube::HttpClient& http, bool any_version) {
  kube::KubeApi api(&http);
  const kube::Collection nodes{"/api/v1/nodes", "", ""};
  const Clock::time_point start = Clock::now();
  ListSend send;
  std::string token;
  do {
    Result<std::string> page =
        api.ListPage(nodes, {.limit = 500,
                             .continue_token = token,
                             .any_version = any_version && token.empty(),
                             .protobuf = any_version});
    if (!page.ok()) return page.status();
    send.bytes += static_cast<int64_t>(page->size());
    if (any_version) break;  // whole, and not JSON to look into
    token = ContinueToken(*page);
  } while (!token.empty());
  send.seconds = SecondsBetween(start, Clock::now());
  return send;
}

// When the first scale write at or after `since` arrived.
Result<Clock::time_point> WaitForScaleWrite(BenchCluster* cluster,
                                            Clock::time_point since,
                                            std::chrono::seconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    Result<std::vector<sim::LoggedRequest>> requests =
        cluster->RequestsSince(since);
    if (!requests.ok()) return requests.status();
    for (const sim::LoggedRequest& request : *requests) {
      if (IsScaleWrite(request.verb_and_path)) return request.at;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::Unavailable("no scale write within " +
                             std::to_string(timeout.count()) + "s");
}

Status WaitForReplicas(const BenchCluster& cluster, int64_t want) {
  const bool reached = e2e::WaitUntil(
      [&] {
        Result<int64_t> replicas = cluster.Replicas();
        return replicas.ok() && *replicas == want;
      },
      std::chrono::seconds(10));
  return reached ? Status::Ok()
                 : Status::Internal("replicas never reached " +
                                    std::to_string(want));
}

// Turns a node NotReady, waits for the scale down and then `quiet`, turns it
// Ready again: the milliseconds from the server's answer to the Ready update
// (it committed before answering) to the scale write arriving. Each write
// must set the replicas the nodes ask for (one a node: `nodes` - 1, then
// `nodes`), or the trial fails: a wrong write is no reaction.
Result<double> ReactionTrial(BenchCluster* cluster, int node, int64_t nodes,
                             std::chrono::milliseconds quiet) {
  const std::string name = NodeName(node);
  Clock::time_point since = Clock::now();
  Status status = cluster->PatchNodeStatus(name, ConditionsPatch(false));
  if (!status.ok()) return status;
  Result<Clock::time_point> down =
      WaitForScaleWrite(cluster, since, std::chrono::seconds(30));
  if (!down.ok()) return down.status().WithContext("after NotReady");
  if (status = WaitForReplicas(*cluster, nodes - 1); !status.ok()) {
    return status.WithContext("after " + name + " went NotReady");
  }
  std::this_thread::sleep_for(quiet);
  since = Clock::now();
  status = cluster->PatchNodeStatus(name, ConditionsPatch(true));
  if (!status.ok()) return status;
  const Clock::time_point committed = Clock::now();
  Result<Clock::time_point> up =
      WaitForScaleWrite(cluster, since, std::chrono::seconds(30));
  if (!up.ok()) return up.status().WithContext("after Ready");
  if (status = WaitForReplicas(*cluster, nodes); !status.ok()) {
    return status.WithContext("after " + name + " went Ready");
  }
  return SecondsBetween(committed, *up) * 1000;
}

struct WireCounts {
  int64_t received_bytes = 0;
  int64_t connections = 0;
};

// propscaler's own count of bytes received and connections opened.
Result<WireCounts> ScrapeWire(int port) {
  constexpr char kReceived[] = "propscaler_api_received_bytes_total";
  constexpr char kConnections[] = "propscaler_api_connections_total";
  Result<std::map<std::string, double>> values =
      ScrapeMetrics(port, {kReceived, kConnections});
  if (!values.ok()) return values.status();
  return WireCounts{static_cast<int64_t>((*values)[kReceived]),
                    static_cast<int64_t>((*values)[kConnections])};
}

std::vector<std::string> PropscalerArgs(const ScaleRunOptions& options,
                                        const std::string& kubeconfig,
                                        int metrics_port) {
  std::vector<std::string> args = {
      "--kubeconfig=" + kubeconfig, std::string("--namespace=") + kNamespace,
      std::string("--configmap=") + kConfigMap,
      std::string("--target=deployment/") + kDeployment,
      "--healthz-port=" + std::to_string(metrics_port)};
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  return args;
}

std::vector<std::string> CpaArgs() {
  return {std::string("--namespace=") + kNamespace,
          std::string("--configmap=") + kConfigMap,
          std::string("--target=deployment/") + kDeployment,
          "--logtostderr=true", "--v=1"};
}

// cluster-proportional-autoscaler reads only an in-cluster config: the
// token and CA under /var/run/secrets/kubernetes.io/serviceaccount and the
// address in $KUBERNETES_SERVICE_HOST/_PORT. It is started in a mount
// namespace of its own where `run_dir` (holding those files) is bind-mounted
// over /run, so this machine's own /run is neither read nor changed; the
// shell execs CPA, so the process measured is CPA itself.
Result<std::unique_ptr<Process>> StartCpa(const BenchCluster& cluster,
                                          const ScaleRunOptions& options,
                                          const e2e::TempDir& run_dir) {
  Result<InClusterIdentity> identity = cluster.PodIdentity(options.rbac);
  if (!identity.ok()) return identity.status();
  Result<std::string> ca = ReadFile(identity->ca_file);
  if (!ca.ok()) return ca.status();
  constexpr char kAccountDir[] = "secrets/kubernetes.io/serviceaccount";
  std::error_code error;
  std::filesystem::create_directories(run_dir.path() + "/" + kAccountDir,
                                      error);
  if (error) {
    return Status::Internal("creating " + run_dir.path() + "/" + kAccountDir +
                            ": " + error.message());
  }
  run_dir.Write(std::string(kAccountDir) + "/token", identity->token);
  run_dir.Write(std::string(kAccountDir) + "/ca.crt", *ca);
  std::vector<std::string> args = {
      "--mount",      "--propagation",
      "private",      "/bin/sh",
      "-c",           "mount --bind \"$0\" /run && exec \"$@\"",
      run_dir.path(), options.cpa_binary};
  for (std::string& arg : CpaArgs()) args.push_back(std::move(arg));
  std::vector<std::string> env = options.env;
  env.push_back("KUBERNETES_SERVICE_HOST=" + identity->host);
  env.push_back("KUBERNETES_SERVICE_PORT=" + identity->port);
  return std::make_unique<Process>("/usr/bin/unshare", args, env);
}

class Run {
 public:
  Run(BenchCluster* cluster, const ScaleRunOptions& options)
      : cluster_(cluster), options_(options) {}

  Result<ScaleRunResult> Measure() {
    Status status = ListAndFirstScale();
    if (status.ok()) status = Heartbeats();
    if (status.ok()) status = Reactions();
    if (status.ok()) status = AtRest();
    if (process_) {
      process_->Signal(SIGTERM);
      process_->WaitForExit(std::chrono::seconds(10));
    }
    if (!status.ok()) {
      const std::string log = process_ ? process_->Output() : "";
      return status.WithContext(
          "the log ends: " +
          log.substr(log.size() > 2000 ? log.size() - 2000 : 0));
    }
    return result_;
  }

 private:
  Status ListAndFirstScale() {
    Result<ListSend> send = TimeListSend(cluster_->Admin(), false);
    if (!send.ok()) return send.status();
    result_.list_send_seconds = send->seconds;
    result_.list_bytes = send->bytes;
    send = TimeListSend(cluster_->Admin(), true);
    if (!send.ok()) return send.status();
    result_.cache_send_seconds = send->seconds;
    Status status = cluster_->SetReplicas(1);
    if (!status.ok()) return status;
    Result<std::unique_ptr<ReplicasWatch>> watch =
        ReplicasWatch::Open(cluster_->Admin());
    if (!watch.ok()) return watch.status();
    Result<std::string> kubeconfig =
        cluster_->PropscalerKubeconfig(options_.rbac);
    if (!kubeconfig.ok()) return kubeconfig.status();
    const Clock::time_point start = Clock::now();
    if (Status started = Start(*kubeconfig); !started.ok()) return started;
    Result<Clock::time_point> written =
        WaitForScaleWrite(cluster_, start, std::chrono::seconds(300));
    if (!written.ok()) return written.status();
    result_.first_scale_seconds = SecondsBetween(start, *written);
    Result<WireCounts> wire = Wire();
    if (!wire.ok()) return wire.status();
    result_.first_scale_wire_bytes = wire->received_bytes;
    result_.first_scale_connections = wire->connections;
    if (status = WaitForReplicas(*cluster_, options_.nodes); !status.ok()) {
      return status;
    }
    if (status = FirstWriteWasRight(**watch, start); !status.ok()) {
      return status;
    }
    Result<ProcStats> stats = Stats();
    if (!stats.ok()) return stats.status();
    result_.peak_rss_after_list_kib = stats->peak_rss_kib;
    result_.rss_after_list_kib = stats->rss_kib;
    result_.anon_after_list_kib = stats->rss_anon_kib;
    result_.file_after_list_kib = stats->rss_file_kib;
    return Status::Ok();
  }

  // The first scale write's value, and how many writes it took to reach
  // the target; for propscaler, an error unless one write set it.
  Status FirstWriteWasRight(const ReplicasWatch& watch,
                            Clock::time_point start) {
    // The watch event of the write that reached the target may trail the
    // GET that saw it.
    e2e::WaitUntil([&] { return !watch.Changes().empty(); },
                   std::chrono::seconds(5));
    const std::vector<ReplicasChange> changes = watch.Changes();
    result_.first_scale_replicas =
        changes.empty() ? -1 : changes.front().replicas;
    Result<std::vector<sim::LoggedRequest>> requests =
        cluster_->RequestsSince(start);
    if (!requests.ok()) return requests.status();
    result_.scale_writes_to_target = 0;
    for (const sim::LoggedRequest& request : *requests) {
      result_.scale_writes_to_target += IsScaleWrite(request.verb_and_path);
    }
    if (!options_.cpa_binary.empty()) return Status::Ok();  // measured only
    if (result_.first_scale_replicas != options_.nodes) {
      return Status::Internal(
          "the first scale write set " +
          std::to_string(result_.first_scale_replicas) + " replicas, not the " +
          std::to_string(options_.nodes) + " the nodes ask for");
    }
    if (result_.scale_writes_to_target != 1) {
      return Status::Internal(std::to_string(result_.scale_writes_to_target) +
                              " scale writes by the time the target had its " +
                              std::to_string(options_.nodes) +
                              " replicas: the first was not the right value");
    }
    return Status::Ok();
  }

  Status Start(const std::string& kubeconfig) {
    if (options_.cpa_binary.empty()) {
      process_ = std::make_unique<Process>(
          options_.binary, PropscalerArgs(options_, kubeconfig, metrics_port_),
          options_.env);
      return Status::Ok();
    }
    Result<std::unique_ptr<Process>> cpa =
        StartCpa(*cluster_, options_, run_dir_);
    if (!cpa.ok()) return cpa.status();
    process_ = std::move(*cpa);
    return Status::Ok();
  }

  Result<WireCounts> Wire() const {
    if (!options_.cpa_binary.empty()) return WireCounts{-1, -1};
    return ScrapeWire(metrics_port_);
  }

  // Rounds of status updates on every node; a reaction trial after each
  // round shows that propscaler has caught up with the stream.
  Status Heartbeats() {
    const Clock::time_point start = Clock::now();
    Result<ProcStats> before = Stats();
    if (!before.ok()) return before.status();
    for (int round = 0; round < options_.heartbeat_rounds; ++round) {
      const std::string patch = ConditionsPatch(true);
      Status status = ParallelFor(
          1, options_.nodes, options_.writer_threads, [&](int node) {
            return cluster_->PatchNodeStatus(NodeName(node), patch);
          });
      if (!status.ok()) return status;
      result_.heartbeat_events += options_.nodes;
      Result<double> sync =
          ReactionTrial(cluster_, 1, options_.nodes, kNoQuiet);
      if (!sync.ok()) return sync.status().WithContext("heartbeat sync");
    }
    Result<ProcStats> after = Stats();
    if (!after.ok()) return after.status();
    result_.heartbeat_cpu_seconds = after->cpu_seconds - before->cpu_seconds;
    result_.peak_rss_after_events_kib = after->peak_rss_kib;
    result_.rss_after_events_kib = after->rss_kib;
    result_.anon_after_events_kib = after->rss_anon_kib;
    Result<std::vector<sim::LoggedRequest>> requests =
        cluster_->RequestsSince(start);
    if (!requests.ok()) return requests.status();
    for (const sim::LoggedRequest& request : *requests) {
      if (request.verb_and_path == "GET /api/v1/nodes") ++result_.relists;
    }
    return Status::Ok();
  }

  Status Reactions() {
    std::mt19937 random(7);
    std::uniform_int_distribution<int> pause_ms(0, 100);
    std::uniform_int_distribution<int64_t> jitter_ms(
        0, options_.reaction_quiet_jitter.count());
    for (int trial = 0; trial < options_.reaction_trials; ++trial) {
      const int node = 1 + trial % options_.nodes;
      Result<double> ms =
          ReactionTrial(cluster_, node, options_.nodes,
                        options_.reaction_quiet +
                            std::chrono::milliseconds(jitter_ms(random)));
      if (!ms.ok()) return ms.status().WithContext("reaction trial");
      result_.reaction_ms.push_back(*ms);
      std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(random)));
    }
    return Status::Ok();
  }

  Status AtRest() {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    Result<WireCounts> before = Wire();
    if (!before.ok()) return before.status();
    const Clock::time_point start = Clock::now();
    std::this_thread::sleep_for(options_.steady_window);
    const Clock::time_point end = Clock::now();
    Result<WireCounts> after = Wire();
    if (!after.ok()) return after.status();
    Result<std::vector<sim::LoggedRequest>> requests =
        cluster_->RequestsSince(start);
    if (!requests.ok()) return requests.status();
    for (const sim::LoggedRequest& request : *requests) {
      if (request.at >= end) break;
      ++result_.steady_requests[request.verb_and_path];
      ++result_.steady_total;
    }
    result_.steady_window = options_.steady_window;
    result_.steady_connections =
        after->connections < 0 ? -1 : after->connections - before->connections;
    return Status::Ok();
  }

  Result<ProcStats> Stats() const {
    if (!process_->Running()) return Status::Internal("the process exited");
    return ReadProcStats(process_->pid());
  }

  BenchCluster* cluster_;
  const ScaleRunOptions& options_;
  const int metrics_port_ = e2e::FreePort();
  e2e::TempDir run_dir_;  // CPA's /run
  std::unique_ptr<Process> process_;
  ScaleRunResult result_;
};

}  // namespace

Result<ScaleRunResult> RunScale(BenchCluster* cluster,
                                const ScaleRunOptions& options) {
  return Run(cluster, options).Measure();
}

}  // namespace propscaler::bench
