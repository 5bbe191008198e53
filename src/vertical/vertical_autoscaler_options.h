// Vertical mode's settings, from its flags (app/vertical_options.h).
#ifndef PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_OPTIONS_H_
#define PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_OPTIONS_H_

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "kube/model/pod_template.h"
#include "vertical/resize_plan.h"
#include "vertical/vertical_config.h"

namespace propscaler {

struct VerticalOptions {
  std::string namespace_;
  kube::WorkloadRef target;
  std::optional<VerticalConfig> default_config;  // --default-config
  std::string config_file;                       // --config-file
  std::string configmap;      // --configmap: watched, instead of a file
  std::string node_selector;  // --nodelabels, passed to the server as is
  bool schedulable_nodes_only = false;
  ResizePolicy policy;
  std::chrono::seconds poll_period{10};
  int max_sync_failures = 0;  // 0: never exit
  bool dry_run = false;
  // Leader election: while false, no cycle runs and nothing is written
  // (empty: always acts).
  std::function<bool()> may_act;

  // "deployment/coredns in namespace kube-system".
  std::string TargetRef() const {
    return target.ToString() + " in namespace " + namespace_;
  }
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_OPTIONS_H_
