// Turns replica mode's flag values into AutoscalerOptions, validating them as
// CPA does (and a little more). Pure: the environment's MY_POD_NAMESPACE and
// the client config's namespace are passed in.
#ifndef PROPSCALER_APP_REPLICA_OPTIONS_H_
#define PROPSCALER_APP_REPLICA_OPTIONS_H_

#include <string>

#include "common/status.h"
#include "replicas/autoscaler_options.h"

namespace propscaler {

struct ReplicaFlags {
  std::string target;
  std::string configmap;
  std::string namespace_;
  std::string default_params;
  std::string nodelabels;
  std::string exclude_node_taints;
  int poll_period_seconds = 10;
  int max_sync_failures = 0;
  bool dry_run = false;
  std::string pod_selector;
  std::string pod_namespace;
  std::string target_selector;
  std::string hpa_floor;
  bool hpa_floor_auto = false;
};

// The namespace is --namespace, else MY_POD_NAMESPACE, else the kubeconfig
// context's (or the pod's service account's) namespace.
Result<AutoscalerOptions> BuildReplicaOptions(
    const ReplicaFlags& flags, const std::string& pod_namespace,
    const std::string& config_namespace);

}  // namespace propscaler

#endif  // PROPSCALER_APP_REPLICA_OPTIONS_H_
