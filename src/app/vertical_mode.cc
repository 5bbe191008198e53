#include "app/vertical_mode.h"

#include <gflags/gflags.h>
#include <glog/logging.h>

#include <algorithm>
#include <cstdlib>

#include "app/api_session.h"
#include "app/leadership.h"
#include "app/loop_runner.h"
#include "app/pod_resize_discovery.h"
#include "app/shared_flags.h"
#include "app/vertical_options.h"
#include "app/vertical_parts.h"
#include "kube/controllers/event_recorder.h"
#include "transport/api.h"
#include "transport/http_client.h"
#include "vertical/vertical_status_page.h"

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
DEFINE_int32(resize_threshold_percent, 0,
             "Vertical mode: change a resource only when the computed value "
             "differs from the current one by more than this percentage of "
             "it (0, the default: on every difference, as cluster-"
             "proportional-vertical-autoscaler).");
DEFINE_int32(scale_down_delay_seconds, 0,
             "Vertical mode: apply a decrease only after it has been wanted "
             "for this long without a break (increases apply at once).");

DEFINE_string(resize, "rollout",
              "Vertical mode: how a new size reaches the running pods. "
              "rollout (the default): the pod template is patched and its "
              "controller replaces the pods. in-place: each running pod is "
              "resized through pods/resize (Kubernetes 1.33+), one at a "
              "time, without a restart; see docs/vertical-mode.md, "
              "\"Resizing in place\".");

namespace propscaler {
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
                      FLAGS_dry_run,
                      FLAGS_resize};
  Result<VerticalOptions> options =
      BuildVerticalOptions(flags, EnvOrEmpty("MY_NAMESPACE"),
                           EnvOrEmpty("MY_POD_NAMESPACE"), config->namespace_);
  if (!options.ok()) {
    LOG(ERROR) << options.status().message();
    return kExitUsage;
  }
  std::string target = options->target.ToString();
  std::replace(target.begin(), target.end(), '/', '-');
  Result<LeaderElectionSettings> election = LeaderElectionFromFlags(
      /*elect_by_default=*/false, "propscaler-vertical-" + target,
      options->namespace_);
  if (!election.ok()) {
    LOG(ERROR) << election.status().message();
    return kExitUsage;
  }
  const Clock& clock = RealClock::Instance();
  ApiSession session(*config, &clock, options->poll_period);
  if (options->resize == ResizeMethod::kInPlace) {
    Result<bool> served = ServesPodResize(session.api);
    if (!served.ok()) {
      LOG(ERROR) << served.status().message();
      return 1;
    }
    options->pod_resize_served = *served;
    LOG_IF(WARNING, !*served)
        << "--resize=in-place: " << config->server
        << " does not serve pods/resize (Kubernetes 1.33+, with the "
           "InPlacePodVerticalScaling gate on); patching the pod template "
           "instead, which replaces the pods";
  }
  Leadership leadership(&session.api, &clock, *election);
  options->may_act = leadership.MayActFunction();
  VerticalStatusBoard board;
  VerticalParts autoscaler(VerticalWatches::Clients::Of(&session.api),
                           VerticalAutoscaler::Clients::Of(&session.api),
                           &clock, *options, &session.health, &session.events,
                           &board);
  return RunLoop(clock, &session.health,
                 {[&] { return autoscaler.RunOnce(); },
                  [&](StopSignal* stop) { return autoscaler.Run(stop); },
                  [&board, &clock, &leadership, &session] {
                    return RenderVerticalStatusPage(
                        board.Snapshot(), clock.Now(),
                        {leadership.View(), session.health.Waiting()});
                  },
                  {"propscaler " PROPSCALER_VERSION " sizing " +
                   options->target.ToString() + " in namespace " +
                   options->namespace_ + " against " + config->server},
                  leadership.elector()});
}

}  // namespace propscaler
