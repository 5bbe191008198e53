#include "app/vertical_options.h"

#include "app/shared_flags.h"
#include "common/label_selector.h"
#include "common/object_names.h"

namespace propscaler {
namespace {

Status CheckRange(const char* flag, int value, int min, int max) {
  if (value >= min && value <= max) return Status::Ok();
  return Status::Invalid("--" + std::string(flag) + " must be from " +
                         std::to_string(min) + " to " + std::to_string(max) +
                         ", got " + std::to_string(value));
}

Result<std::string> VerticalNamespace(const VerticalFlags& flags,
                                      const std::string& my_namespace_env,
                                      const std::string& pod_namespace_env,
                                      const std::string& config_namespace) {
  NamespaceSources sources{flags.namespace_, my_namespace_env, config_namespace,
                           "MY_NAMESPACE"};
  if (my_namespace_env.empty() && !pod_namespace_env.empty()) {
    sources.pod_env = pod_namespace_env;
    sources.pod_env_name = "MY_POD_NAMESPACE";
  }
  return ResolveNamespace(sources, "");
}

}  // namespace

Result<VerticalOptions> BuildVerticalOptions(
    const VerticalFlags& flags, const std::string& my_namespace_env,
    const std::string& pod_namespace_env, const std::string& config_namespace) {
  VerticalOptions options;
  Result<kube::WorkloadRef> target = kube::ParseWorkloadRef(flags.target);
  if (!target.ok()) return target.status();
  options.target = *target;
  Result<std::string> ns = VerticalNamespace(
      flags, my_namespace_env, pod_namespace_env, config_namespace);
  if (!ns.ok()) return ns.status();
  options.namespace_ = *ns;
  if (flags.default_config.empty() && flags.config_file.empty() &&
      flags.configmap.empty()) {
    return Status::Invalid(
        "either --default-config or --config-file must be specified (or "
        "--configmap)");
  }
  if (!flags.config_file.empty() && !flags.configmap.empty()) {
    return Status::Invalid(
        "--config-file and --configmap are two sources of the same config: "
        "pass one");
  }
  if (!flags.default_config.empty()) {
    Result<VerticalConfig> config =
        ParseVerticalConfig(flags.default_config, "--default-config");
    if (!config.ok()) return config.status();
    options.default_config = *config;
  }
  options.config_file = flags.config_file;
  if (!flags.configmap.empty()) {
    if (Status valid = CheckDns1123Subdomain("configmap", flags.configmap);
        !valid.ok()) {
      return valid;
    }
  }
  options.configmap = flags.configmap;
  if (flags.poll_period_seconds < 1) {
    return Status::Invalid("--poll-period-seconds cannot be less than 1, got " +
                           std::to_string(flags.poll_period_seconds));
  }
  options.poll_period = std::chrono::seconds(flags.poll_period_seconds);
  for (const Status& status :
       {CheckRange("resize-threshold-percent", flags.threshold_percent, 0, 100),
        CheckRange("scale-down-delay-seconds", flags.scale_down_delay_seconds,
                   0, 86400),
        CheckRange("max-sync-failures", flags.max_sync_failures, 0, 1 << 30)}) {
    if (!status.ok()) return status;
  }
  options.policy = {flags.threshold_percent,
                    std::chrono::seconds(flags.scale_down_delay_seconds)};
  options.max_sync_failures = flags.max_sync_failures;
  Result<LabelSelector> selector = LabelSelector::Parse(flags.nodelabels);
  if (!selector.ok()) return selector.status().WithContext("--nodelabels");
  options.node_selector = flags.nodelabels;
  options.schedulable_nodes_only = flags.schedulable_nodes_only;
  options.dry_run = flags.dry_run;
  if (flags.resize == "in-place") {
    options.resize = ResizeMethod::kInPlace;
  } else if (flags.resize != "rollout") {
    return Status::Invalid("--resize must be rollout or in-place, got \"" +
                           flags.resize + "\"");
  }
  return options;
}

}  // namespace propscaler
