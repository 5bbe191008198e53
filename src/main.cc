// propscaler: flags -> mode -> run.
#include <gflags/gflags.h>
#include <glog/logging.h>

#include <cstdlib>
#include <iostream>

#include "app/flag_spelling.h"
#include "app/node_scale_mode.h"
#include "app/plan_command.h"
#include "app/replica_options.h"
#include "app/simulate_command.h"
#include "common/stop_on_signals.h"
#include "kube/api.h"
#include "kube/client_config.h"
#include "kube/event_recorder.h"
#include "kube/http_client.h"
#include "replicas/autoscaler.h"
#include "server/health_server.h"
#include "server/status_page.h"

// cluster-proportional-autoscaler's flags, spelled as it spells them.
DEFINE_string(target, "",
              "Comma list of KIND/NAME to scale: deployment, replicaset, "
              "replicationcontroller or statefulset (case-insensitive, plural "
              "accepted).");
DEFINE_string(configmap, "",
              "ConfigMap holding the params (linear or ladder).");
DEFINE_string(namespace, "",
              "Namespace of the ConfigMap and the targets; default: "
              "$MY_POD_NAMESPACE, then the kubeconfig context's namespace.");
DEFINE_string(default_params, "",
              "JSON params, e.g. {\"linear\":{\"coresPerReplica\":256}}: "
              "creates the ConfigMap when absent, and updates it when the "
              "flag changes and nobody has edited it.");
DEFINE_string(nodelabels, "",
              "Label selector restricting which nodes count, e.g. a=b,c!=d.");
DEFINE_int32(poll_period_seconds, 10,
             "Seconds between cycles; changes also trigger a cycle within a "
             "second.");
DEFINE_int32(max_sync_failures, 0,
             "Exit 1 after this many consecutive failed cycles; 0 = never.");
// propscaler's own.
DEFINE_string(exclude_node_taints, "",
              "Comma list of taints, key or key:Effect (NoSchedule, "
              "PreferNoSchedule, NoExecute), whose nodes count as not "
              "schedulable, e.g. node.kubernetes.io/unreachable.");
DEFINE_string(kubeconfig, "",
              "kubeconfig file; default: the in-cluster service account.");
DEFINE_int32(healthz_port, 8080,
             "Port of /healthz and /last-poll; 0 turns the server off.");
DEFINE_bool(once, false,
            "Run one cycle and exit: 0 on success, 1 on any failure.");
DEFINE_bool(dry_run, false, "Compute and log, but write nothing.");
DEFINE_string(mode, "replicas", "replicas (the default) or node-scale.");
DEFINE_int32(api_idle_timeout_seconds, 120,
             "Abandon and retry an API request or watch on which nothing "
             "arrives for this long (servers send watch bookmarks about once "
             "a minute).");

// gflags' hook for ending the process on a bad flag (an illegal value, an
// unknown flag); exported by libgflags though not in its header. It exits 1,
// which propscaler keeps for failed cycles: bad usage is 2.
namespace google {
extern void (*gflags_exitfunc)(int);
}  // namespace google

namespace propscaler {
namespace {

constexpr int kExitUsage = 2;

// gflags also ends the process this way after --help and its kin (with 1)
// and --version (with 0): those asked for what they got.
void ExitOnBadFlag(int code) {
  for (const char* help : {"help", "helpfull", "helpshort", "helpon",
                           "helpmatch", "helppackage", "helpxml"}) {
    std::string value;
    if (gflags::GetCommandLineOption(help, &value) && !value.empty() &&
        value != "false") {
      std::exit(0);
    }
  }
  std::exit(code == 0 ? 0 : kExitUsage);
}

// The flags both modes share; the modes check their own.
Status CheckCommonFlags() {
  if (FLAGS_healthz_port < 0 || FLAGS_healthz_port > 65535) {
    return Status::Invalid(
        "--healthz-port=" + std::to_string(FLAGS_healthz_port) +
        ": want a port from 1 to 65535, or 0 for none");
  }
  if (FLAGS_api_idle_timeout_seconds < 1) {
    return Status::Invalid("--api-idle-timeout-seconds=" +
                           std::to_string(FLAGS_api_idle_timeout_seconds) +
                           ": want at least 1");
  }
  if (FLAGS_mode != "replicas" && FLAGS_mode != "node-scale") {
    return Status::Invalid("--mode=" + FLAGS_mode +
                           ": want replicas or node-scale");
  }
  return Status::Ok();
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

Result<kube::ClientConfig> LoadClientConfig() {
  if (!FLAGS_kubeconfig.empty()) return kube::LoadKubeconfig(FLAGS_kubeconfig);
  return kube::LoadInClusterConfig(kube::kServiceAccountDir);
}

int RunReplicaMode() {
  Result<kube::ClientConfig> config = LoadClientConfig();
  if (!config.ok()) {
    LOG(ERROR) << config.status().message();
    return kExitUsage;
  }
  ReplicaFlags flags{FLAGS_target,
                     FLAGS_configmap,
                     FLAGS_namespace,
                     FLAGS_default_params,
                     FLAGS_nodelabels,
                     FLAGS_exclude_node_taints,
                     FLAGS_poll_period_seconds,
                     FLAGS_max_sync_failures,
                     FLAGS_dry_run};
  Result<AutoscalerOptions> options =
      BuildReplicaOptions(flags, Env("MY_POD_NAMESPACE"), config->namespace_);
  if (!options.ok()) {
    LOG(ERROR) << options.status().message();
    return kExitUsage;
  }
  kube::HttpClient http(*config);
  kube::KubeApi api(&http,
                    {std::chrono::seconds(FLAGS_api_idle_timeout_seconds)});
  const Clock& clock = RealClock::Instance();
  HealthState health(&clock, std::max<Duration>(std::chrono::seconds(120),
                                                5 * options->poll_period));
  kube::EventRecorder events(&api, &clock, "propscaler");
  ReplicaStatusBoard board;
  ReplicaAutoscaler autoscaler(&api, &clock, *options, &health, &events,
                               &board);
  if (FLAGS_once) {
    Status status = autoscaler.RunOnce();
    if (!status.ok()) LOG(ERROR) << "cycle failed: " << status.message();
    return status.ok() ? 0 : 1;
  }
  StopSignal stop(&clock);
  StopOnSignals(&stop);
  HealthServer health_server(&health, [&board, &clock] {
    return RenderStatusPage(board.Snapshot(), clock.Now());
  });
  if (FLAGS_healthz_port != 0) {
    if (Status status = health_server.Start(FLAGS_healthz_port); !status.ok()) {
      LOG(ERROR) << status.message();
      return kExitUsage;
    }
  }
  LOG(INFO) << "propscaler " << PROPSCALER_VERSION << " scaling "
            << FLAGS_target << " in namespace " << options->namespace_
            << " from " << FLAGS_configmap << " against " << config->server;
  if (!options->excluded_taints.empty()) {
    LOG(INFO) << "nodes tainted " << options->excluded_taints.ToString()
              << " count as not schedulable (--exclude-node-taints)";
  }
  const int code = autoscaler.Run(&stop);
  health_server.Stop();
  return code;
}

}  // namespace
}  // namespace propscaler

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "simulate") {
    return propscaler::RunSimulateCommand(argc - 1, argv + 1);
  }
  if (argc > 1 && std::string_view(argv[1]) == "plan") {
    return propscaler::RunPlanCommand(argc - 1, argv + 1);
  }
  std::vector<std::string> args = propscaler::NormalizeFlagSpelling(
      std::vector<std::string>(argv, argv + argc));
  std::vector<char*> arg_pointers;
  for (std::string& arg : args) arg_pointers.push_back(arg.data());
  int normalized_argc = static_cast<int>(arg_pointers.size());
  char** normalized_argv = arg_pointers.data();

  FLAGS_logtostderr = true;  // as Kubernetes components log
  gflags::SetVersionString(PROPSCALER_VERSION);
  gflags::SetUsageMessage(
      "keeps a workload's replicas proportional to the cluster.\n"
      "  propscaler --target=deployment/coredns --configmap=dns-autoscaler "
      "--namespace=kube-system [--default-params=JSON] [--kubeconfig=FILE]");
  google::gflags_exitfunc = &propscaler::ExitOnBadFlag;
  gflags::ParseCommandLineFlags(&normalized_argc, &normalized_argv, true);
  google::InitGoogleLogging(argv[0]);
  if (normalized_argc > 1) {
    LOG(ERROR) << "unexpected argument \"" << normalized_argv[1] << "\"";
    return propscaler::kExitUsage;
  }
  if (propscaler::Status flags = propscaler::CheckCommonFlags(); !flags.ok()) {
    LOG(ERROR) << flags.message();
    return propscaler::kExitUsage;
  }
  if (FLAGS_mode == "node-scale") return propscaler::RunNodeScaleMode();
  return propscaler::RunReplicaMode();
}
