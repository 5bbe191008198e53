#include "harness/scale_run.h"

#include <signal.h>

#include <random>
#include <thread>

#include "e2e/process.h"
#include "harness/proc_stats.h"
#include "kube/api.h"
#include "kube/client_config.h"

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
std::string ConditionsPatch(bool ready, int heartbeat) {
  const std::string time =
      "2024-05-01T13:" + std::to_string(10 + heartbeat % 50) + ":00Z";
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

// How long a client that decodes nothing takes to receive every page.
Result<double> TimeListSend(const std::string& kubeconfig) {
  Result<kube::ClientConfig> config = kube::LoadKubeconfig(kubeconfig);
  if (!config.ok()) return config.status();
  kube::HttpClient http(*config);
  kube::KubeApi api(&http);
  const kube::Collection nodes{"/api/v1/nodes", "", ""};
  const Clock::time_point start = Clock::now();
  std::string token;
  do {
    Result<std::string> page = api.ListPage(nodes, 500, token);
    if (!page.ok()) return page.status();
    token = ContinueToken(*page);
  } while (!token.empty());
  return SecondsBetween(start, Clock::now());
}

// When the first scale write at or after `since` arrived.
Result<Clock::time_point> WaitForScalePatch(const sim::FakeApiServer& server,
                                            Clock::time_point since,
                                            std::chrono::seconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    for (const sim::LoggedRequest& request : server.RequestLog(since)) {
      if (IsScaleWrite(request.verb_and_path)) return request.at;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::Unavailable("no scale write within " +
                             std::to_string(timeout.count()) + "s");
}

Status WaitForReplicas(const sim::FakeApiServer& server, int64_t want) {
  const bool reached = e2e::WaitUntil(
      [&] {
        Result<int64_t> replicas =
            server.GetReplicas("deployment", kNamespace, kDeployment);
        return replicas.ok() && *replicas == want;
      },
      std::chrono::seconds(10));
  return reached ? Status::Ok()
                 : Status::Internal("replicas never reached " +
                                    std::to_string(want));
}

// Turns a node NotReady, waits for the scale down and then `quiet`, turns it
// Ready again: the milliseconds from committing Ready to the scale write
// arriving.
Result<double> ReactionTrial(sim::FakeApiServer* server, int node,
                             int heartbeat, std::chrono::milliseconds quiet) {
  const std::string name = NodeName(node);
  Clock::time_point since = Clock::now();
  Status status = server->PatchNode(name, ConditionsPatch(false, heartbeat));
  if (!status.ok()) return status;
  Result<Clock::time_point> down =
      WaitForScalePatch(*server, since, std::chrono::seconds(30));
  if (!down.ok()) return down.status().WithContext("after NotReady");
  std::this_thread::sleep_for(quiet);
  since = Clock::now();
  status = server->PatchNode(name, ConditionsPatch(true, heartbeat));
  if (!status.ok()) return status;
  Result<Clock::time_point> up =
      WaitForScalePatch(*server, since, std::chrono::seconds(30));
  if (!up.ok()) return up.status().WithContext("after Ready");
  return SecondsBetween(since, *up) * 1000;
}

std::vector<std::string> PropscalerArgs(const ScaleRunOptions& options) {
  std::vector<std::string> args = {
      "--kubeconfig=" + options.kubeconfig,
      std::string("--namespace=") + kNamespace,
      std::string("--configmap=") + kConfigMap,
      std::string("--target=deployment/") + kDeployment, "--healthz-port=0"};
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  return args;
}

class Run {
 public:
  Run(sim::FakeApiServer* server, const ScaleRunOptions& options)
      : server_(server), options_(options) {}

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
          "propscaler's log ends: " +
          log.substr(log.size() > 2000 ? log.size() - 2000 : 0));
    }
    return result_;
  }

 private:
  Status ListAndFirstScale() {
    Result<double> send = TimeListSend(options_.kubeconfig);
    if (!send.ok()) return send.status();
    result_.list_send_seconds = *send;
    Status status =
        server_->SetReplicas("deployment", kNamespace, kDeployment, 1);
    if (!status.ok()) return status;
    const Clock::time_point start = Clock::now();
    process_ = std::make_unique<Process>(
        options_.binary, PropscalerArgs(options_), options_.env);
    Result<Clock::time_point> patched =
        WaitForScalePatch(*server_, start, std::chrono::seconds(120));
    if (!patched.ok()) return patched.status();
    result_.first_scale_seconds = SecondsBetween(start, *patched);
    if (status = WaitForReplicas(*server_, options_.nodes); !status.ok()) {
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

  // Rounds of status updates on every node; a reaction trial after each
  // round shows that propscaler has caught up with the stream.
  Status Heartbeats() {
    server_->ResetRequestCounts();
    Result<ProcStats> before = Stats();
    if (!before.ok()) return before.status();
    for (int round = 0; round < options_.heartbeat_rounds; ++round) {
      const std::string patch = ConditionsPatch(true, round);
      for (int node = 1; node <= options_.nodes; ++node) {
        Status status = server_->PatchNode(NodeName(node), patch);
        if (!status.ok()) return status;
      }
      result_.heartbeat_events += options_.nodes;
      Result<double> sync = ReactionTrial(server_, 1, round, kNoQuiet);
      if (!sync.ok()) return sync.status().WithContext("heartbeat sync");
    }
    Result<ProcStats> after = Stats();
    if (!after.ok()) return after.status();
    result_.heartbeat_cpu_seconds = after->cpu_seconds - before->cpu_seconds;
    result_.peak_rss_after_events_kib = after->peak_rss_kib;
    result_.rss_after_events_kib = after->rss_kib;
    result_.anon_after_events_kib = after->rss_anon_kib;
    result_.relists = server_->Requests().Count("GET /api/v1/nodes");
    return Status::Ok();
  }

  Status Reactions() {
    std::mt19937 random(7);
    std::uniform_int_distribution<int> pause_ms(0, 100);
    for (int trial = 0; trial < options_.reaction_trials; ++trial) {
      const int node = 1 + trial % options_.nodes;
      Result<double> ms =
          ReactionTrial(server_, node, trial, options_.reaction_quiet);
      if (!ms.ok()) return ms.status().WithContext("reaction trial");
      result_.reaction_ms.push_back(*ms);
      std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(random)));
    }
    return Status::Ok();
  }

  Status AtRest() {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    server_->ResetRequestCounts();
    std::this_thread::sleep_for(options_.steady_window);
    const sim::RequestCounts counts = server_->Requests();
    result_.steady_window = options_.steady_window;
    result_.steady_requests = counts.by_request;
    result_.steady_total = counts.total;
    return Status::Ok();
  }

  Result<ProcStats> Stats() const {
    if (!process_->Running()) return Status::Internal("propscaler exited");
    return ReadProcStats(process_->pid());
  }

  sim::FakeApiServer* server_;
  const ScaleRunOptions& options_;
  std::unique_ptr<Process> process_;
  ScaleRunResult result_;
};

}  // namespace

Result<ScaleRunResult> RunScale(sim::FakeApiServer* server,
                                const ScaleRunOptions& options) {
  return Run(server, options).Measure();
}

}  // namespace propscaler::bench
