#include "app/vertical_mode.h"

#include <gflags/gflags.h>
#include <glog/logging.h>

#include <cstdlib>

#include "app/shared_flags.h"
#include "app/vertical_options.h"
#include "common/stop_on_signals.h"
#include "kube/api.h"
#include "kube/event_recorder.h"
#include "kube/http_client.h"
#include "server/health_server.h"
#include "server/status_page.h"
#include "vertical/vertical_autoscaler.h"

// Shared with replica mode, which defines them.
DECLARE_string(target);
DECLARE_string(configmap);
DECLARE_string(nodelabels);
DECLARE_int32(poll_period_seconds);
DECLARE_int32(max_sync_failures);

// cluster-proportional-vertical-autoscaler's flags, spelled as it spells
// them (--target, --namespace, --poll-period-seconds, --kubeconfig and
// --dry-run are shared).
DEFINE_string(default_config, "",
              "Vertical mode: the config, as JSON: {\"CONTAINER\": "
              "{\"requests\": {\"cpu\": {\"base\": \"10m\", \"step\": \"1m\", "
              "\"nodesPerStep\": 1}}}}; --config-file's containers replace "
              "its own.");
DEFINE_string(config_file, "",
              "Vertical mode: a JSON config file laid over --default-config, "
              "re-read within a second of a change.");
// propscaler's own.
DEFINE_bool(schedulable_nodes_only, false,
            "Vertical mode: count only Ready, schedulable nodes and their "
            "allocatable cores (as replica mode) instead of every node and "
            "its capacity cores (as cluster-proportional-vertical-"
            "autoscaler).");
DEFINE_int32(resize_threshold_percent, 5,
             "Vertical mode: change a resource only when the computed value "
             "differs from the current one by more than this percentage of "
             "it (0: on every difference, as cluster-proportional-vertical-"
             "autoscaler).");
DEFINE_int32(scale_down_delay_seconds, 0,
             "Vertical mode: apply a decrease only after it has been wanted "
             "for this long without a break (increases apply at once).");

namespace propscaler {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

}  // namespace

int RunVerticalMode() {
  Result<kube::ClientConfig> config = LoadClientConfigFromFlags();
  if (!config.ok()) {
    LOG(ERROR) << config.status().message();
    return kExitUsage;
  }
  VerticalFlags flags{FLAGS_target,
                      FLAGS_namespace,
                      FLAGS_default_config,
                      FLAGS_config_file,
                      FLAGS_configmap,
                      FLAGS_nodelabels,
                      FLAGS_schedulable_nodes_only,
                      FLAGS_resize_threshold_percent,
                      FLAGS_scale_down_delay_seconds,
                      FLAGS_poll_period_seconds,
                      FLAGS_max_sync_failures,
                      FLAGS_dry_run};
  Result<VerticalOptions> options = BuildVerticalOptions(
      flags, Env("MY_NAMESPACE"), Env("MY_POD_NAMESPACE"), config->namespace_);
  if (!options.ok()) {
    LOG(ERROR) << options.status().message();
    return kExitUsage;
  }
  kube::HttpClient http(*config);
  kube::KubeApi api(&http, ApiOptionsFromFlags());
  const Clock& clock = RealClock::Instance();
  HealthState health(&clock, std::max<Duration>(std::chrono::seconds(120),
                                                5 * options->poll_period));
  kube::EventRecorder events(&api, &clock, "propscaler");
  VerticalStatusBoard board;
  VerticalAutoscaler autoscaler(&api, &clock, *options, &health, &events,
                                &board);
  if (FLAGS_once) {
    Status status = autoscaler.RunOnce();
    if (!status.ok()) LOG(ERROR) << "cycle failed: " << status.message();
    return status.ok() ? 0 : 1;
  }
  StopSignal stop(&clock);
  StopOnSignals(&stop);
  HealthServer health_server(&health, [&board, &clock] {
    return RenderVerticalStatusPage(board.Snapshot(), clock.Now());
  });
  if (FLAGS_healthz_port != 0) {
    if (Status status = health_server.Start(FLAGS_healthz_port); !status.ok()) {
      LOG(ERROR) << status.message();
      return kExitUsage;
    }
  }
  LOG(INFO) << "propscaler " << PROPSCALER_VERSION << " sizing "
            << options->target.ToString() << " in namespace "
            << options->namespace_ << " against " << config->server;
  const int code = autoscaler.Run(&stop);
  health_server.Stop();
  return code;
}

}  // namespace propscaler
