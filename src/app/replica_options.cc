#include "app/replica_options.h"

#include "app/shared_flags.h"
#include "common/label_selector.h"
#include "common/object_names.h"
#include "common/taint_filter.h"
#include "replicas/params.h"

namespace propscaler {

Result<AutoscalerOptions> BuildReplicaOptions(
    const ReplicaFlags& flags, const std::string& pod_namespace,
    const std::string& config_namespace) {
  AutoscalerOptions options;
  if (flags.configmap.empty()) {
    return Status::Invalid(
        "--configmap is required: the ConfigMap holding "
        "the params");
  }
  if (Status valid = CheckDns1123Subdomain("configmap", flags.configmap);
      !valid.ok()) {
    return valid;
  }
  options.configmap = flags.configmap;
  if (!flags.target_selector.empty()) {
    Result<kube::TargetSelector> selector =
        kube::ParseTargetSelector(flags.target_selector);
    if (!selector.ok()) return selector.status();
    options.target_selector = *selector;
  }
  // With --target-selector, --target may list more targets or none.
  if (!options.target_selector.has_value() || !flags.target.empty()) {
    Result<std::vector<kube::ScaleTarget>> targets =
        kube::ParseScaleTargets(flags.target);
    if (!targets.ok() && flags.target.empty()) {
      return targets.status().WithContext(
          "name the targets with --target or --target-selector");
    }
    if (!targets.ok()) return targets.status();
    options.targets = *targets;
  }

  Result<std::string> ns =
      ResolveNamespace({flags.namespace_, pod_namespace, config_namespace}, "");
  if (!ns.ok()) return ns.status();
  options.namespace_ = *ns;
  if (flags.poll_period_seconds < 1) {
    return Status::Invalid("--poll-period-seconds must be at least 1, got " +
                           std::to_string(flags.poll_period_seconds));
  }
  options.poll_period = std::chrono::seconds(flags.poll_period_seconds);
  if (flags.max_sync_failures < 0) {
    return Status::Invalid("--max-sync-failures must be 0 or more, got " +
                           std::to_string(flags.max_sync_failures));
  }
  options.max_sync_failures = flags.max_sync_failures;

  Result<LabelSelector> selector = LabelSelector::Parse(flags.nodelabels);
  if (!selector.ok()) return selector.status().WithContext("--nodelabels");
  options.node_selector = flags.nodelabels;
  Result<TaintFilter> taints = TaintFilter::Parse(flags.exclude_node_taints);
  if (!taints.ok()) {
    return taints.status().WithContext("--exclude-node-taints");
  }
  options.excluded_taints = *taints;

  if (!flags.default_params.empty()) {
    Result<ConfigMapData> data = DefaultParamsToData(flags.default_params);
    if (!data.ok()) return data.status();
    options.default_params = *data;
  }
  if (!flags.pod_selector.empty()) {
    Result<LabelSelector> pods = LabelSelector::Parse(flags.pod_selector);
    if (!pods.ok()) return pods.status().WithContext("--pod-selector");
  }
  if (!flags.pod_namespace.empty()) {
    if (flags.pod_selector.empty()) {
      return Status::Invalid("--pod-namespace=" + flags.pod_namespace +
                             " without --pod-selector: name the pods to "
                             "count, e.g. --pod-selector=app=web");
    }
    if (Status valid = CheckDns1123Label("pod-namespace", flags.pod_namespace);
        !valid.ok()) {
      return valid;
    }
  }
  if (flags.hpa_floor_auto) {
    if (!flags.hpa_floor.empty()) {
      return Status::Invalid("--hpa-floor=" + flags.hpa_floor +
                             " and --hpa-floor-auto: name the HPA, or let "
                             "each target's one HPA take the floor, not both");
    }
    options.hpa_floor = AutoscalerOptions::HpaFloor{.automatic = true};
  }
  if (!flags.hpa_floor.empty()) {
    if (Status valid = CheckDns1123Subdomain("hpa-floor", flags.hpa_floor);
        !valid.ok()) {
      return valid;
    }
    options.hpa_floor = AutoscalerOptions::HpaFloor{flags.hpa_floor};
  }
  options.pod_selector = flags.pod_selector;
  options.pod_namespace = flags.pod_namespace;
  options.dry_run = flags.dry_run;
  return options;
}

}  // namespace propscaler
