// Turns vertical mode's flag values into VerticalOptions, validating them
// as cluster-proportional-vertical-autoscaler does (and a little more). Pure:
// the environment's namespace and the client config's are passed in.
#ifndef PROPSCALER_APP_VERTICAL_OPTIONS_H_
#define PROPSCALER_APP_VERTICAL_OPTIONS_H_

#include <string>

#include "common/status.h"
#include "vertical/vertical_autoscaler_options.h"

namespace propscaler {

struct VerticalFlags {
  std::string target;
  std::string namespace_;
  std::string default_config;
  std::string config_file;
  std::string configmap;
  std::string nodelabels;
  bool schedulable_nodes_only = false;
  int threshold_percent = 0;
  int scale_down_delay_seconds = 0;
  int poll_period_seconds = 10;
  int max_sync_failures = 0;
  bool dry_run = false;
  std::string resize = "rollout";  // --resize: "rollout" or "in-place"
};

// The namespace is --namespace, else $MY_NAMESPACE (CPVA's), else
// $MY_POD_NAMESPACE, else the kubeconfig context's.
Result<VerticalOptions> BuildVerticalOptions(
    const VerticalFlags& flags, const std::string& my_namespace_env,
    const std::string& pod_namespace_env, const std::string& config_namespace);

}  // namespace propscaler

#endif  // PROPSCALER_APP_VERTICAL_OPTIONS_H_
