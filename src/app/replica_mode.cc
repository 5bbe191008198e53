#include "app/replica_mode.h"

#include <gflags/gflags.h>
#include <glog/logging.h>

#include <cstdlib>

#include "app/api_session.h"
#include "app/hpa_version.h"
#include "app/leadership.h"
#include "app/loop_runner.h"
#include "app/replica_options.h"
#include "app/replica_parts.h"
#include "app/shared_flags.h"
#include "kube/controllers/event_recorder.h"
#include "replicas/replica_status_page.h"
#include "transport/api.h"
#include "transport/http_client.h"

// cluster-proportional-autoscaler's flags, spelled as it spells them.
DEFINE_string(target, "",
              "Comma list of KIND/NAME to scale: deployment, replicaset, "
              "replicationcontroller or statefulset (plural accepted; the "
              "whole flag is lower-cased, name included, as CPA does). "
              "Vertical mode: one KIND/NAME to size: deployment, daemonset, "
              "replicaset or statefulset.");
DEFINE_string(configmap, "",
              "ConfigMap holding the params (linear or ladder). Vertical "
              "mode: a watched ConfigMap holding the config (its key named "
              "like it, or its only key), instead of --config-file.");
DEFINE_string(default_params, "",
              "JSON params, e.g. {\"linear\":{\"coresPerReplica\":256}}: "
              "creates the ConfigMap when absent, and updates it when the "
              "flag changes and nobody has edited it.");
DEFINE_string(nodelabels, "",
              "Label selector restricting which nodes count, e.g. a=b,c!=d "
              "(vertical mode too; cluster-proportional-vertical-autoscaler "
              "counts every node).");
DEFINE_int32(poll_period_seconds, 10,
             "Seconds between cycles; changes also trigger a cycle within a "
             "second.");
DEFINE_int32(max_sync_failures, 0,
             "Exit 1 after this many consecutive failed cycles; 0 = never.");
// propscaler's own.
DEFINE_string(pod_selector, "",
              "Label selector of the pods params' podsPerReplica and "
              "podsToReplicas count (Running and Pending ones), e.g. "
              "app=web; empty: no pods are counted.");
DEFINE_string(pod_namespace, "",
              "The namespace of the pods --pod-selector counts; empty: every "
              "namespace.");
DEFINE_string(target_selector, "",
              "KIND:LABEL-SELECTOR, e.g. deployment:k8s-app=kube-dns: every "
              "workload of the kind in the namespace whose labels match is a "
              "target, followed as they appear and go (needs list and watch "
              "on the kind); with --target, both are.");
DEFINE_string(hpa_floor, "",
              "Name of a HorizontalPodAutoscaler in the namespace that scales "
              "one of the targets: the computed count is written as its "
              "spec.minReplicas (capped at its maxReplicas) instead of the "
              "target's replicas, so the HPA scales on load above the "
              "proportional floor (needs get and patch on it).");
DEFINE_bool(hpa_floor_auto, false,
            "For each target exactly one HorizontalPodAutoscaler in the "
            "namespace scales, write the computed count as that HPA's "
            "spec.minReplicas instead of the target's replicas (a target "
            "several HPAs scale is left alone and reported); needs list, "
            "watch, get and patch on the namespace's HPAs.");
DEFINE_string(exclude_node_taints, "",
              "Comma list of taints, key or key:Effect (NoSchedule, "
              "PreferNoSchedule, NoExecute), whose nodes count as not "
              "schedulable, e.g. node.kubernetes.io/unreachable.");
namespace propscaler {
int RunReplicaMode() {
  if (Status empty = RefuseExplicitlyEmpty(
          {"pod_selector", "pod_namespace", "target_selector", "hpa_floor"});
      !empty.ok()) {
    LOG(ERROR) << empty.message();
    return kExitUsage;
  }
  Result<kube::ClientConfig> config = LoadClientConfigFromFlags();
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
                     FLAGS_dry_run,
                     FLAGS_pod_selector,
                     FLAGS_pod_namespace,
                     FLAGS_target_selector,
                     FLAGS_hpa_floor,
                     FLAGS_hpa_floor_auto};
  Result<AutoscalerOptions> options = BuildReplicaOptions(
      flags, EnvOrEmpty("MY_POD_NAMESPACE"), config->namespace_);
  if (!options.ok()) {
    LOG(ERROR) << options.status().message();
    return kExitUsage;
  }
  Result<LeaderElectionSettings> election = LeaderElectionFromFlags(
      /*elect_by_default=*/false, "propscaler-replicas-" + options->configmap,
      options->namespace_);
  if (!election.ok()) {
    LOG(ERROR) << election.status().message();
    return kExitUsage;
  }
  const Clock& clock = RealClock::Instance();
  ApiSession session(*config, &clock, options->poll_period);
  if (options->hpa_floor.has_value()) {
    Result<std::string> version = ResolveHpaVersion(session.api);
    if (version.ok()) {
      options->hpa_floor->version = *version;
    } else {
      LOG(WARNING) << version.status().message()
                   << "; writing it through autoscaling/v1, which every "
                      "release serves";
    }
  }
  Leadership leadership(&session.api, &clock, *election);
  options->may_act = leadership.MayActFunction();
  ReplicaStatusBoard board;
  ReplicaParts autoscaler(ReplicaWatches::Clients::Of(&session.api),
                          ReplicaAutoscaler::Clients::Of(&session.api), &clock,
                          *options, &session.health, &session.events, &board);
  std::vector<std::string> start_lines = {
      "propscaler " PROPSCALER_VERSION " scaling " + FLAGS_target +
      (FLAGS_target.empty() || FLAGS_target_selector.empty() ? "" : " and ") +
      (FLAGS_target_selector.empty()
           ? ""
           : "the " + options->target_selector->Named("").ApiKind() +
                 "s selected by " + options->target_selector->label_selector) +
      " in namespace " + options->namespace_ + " from " + FLAGS_configmap +
      " against " + config->server};
  if (options->hpa_floor.has_value()) {
    const AutoscalerOptions::HpaFloor& floor = *options->hpa_floor;
    start_lines.push_back(
        "the count is written as spec.minReplicas of " +
        (floor.automatic ? std::string("the one horizontalpodautoscaler "
                                       "scaling a target")
                         : "horizontalpodautoscaler " + options->namespace_ +
                               "/" + floor.name) +
        " through autoscaling/" + floor.version +
        (floor.automatic ? " (--hpa-floor-auto)" : " (--hpa-floor)") +
        ", not as the replicas of the target it scales");
  }
  if (!options->excluded_taints.empty()) {
    start_lines.push_back("nodes tainted " +
                          options->excluded_taints.ToString() +
                          " count as not schedulable (--exclude-node-taints)");
  }
  return RunLoop(clock, &session.health,
                 {[&] { return autoscaler.RunOnce(); },
                  [&](StopSignal* stop) { return autoscaler.Run(stop); },
                  [&board, &clock, &leadership, &session] {
                    return RenderReplicaStatusPage(
                        board.Snapshot(), clock.Now(),
                        {leadership.View(), session.health.Waiting()});
                  },
                  start_lines, leadership.elector()});
}

}  // namespace propscaler
