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

// How a new size reaches the running pods (--resize).
enum class ResizeMethod {
  kRollout,  // the pod template is patched; its controller replaces the pods
  kInPlace,  // each running pod is resized through pods/resize
};

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
  ResizeMethod resize = ResizeMethod::kRollout;
  // With kInPlace: whether the server serves pods/resize (found at start);
  // where it does not, the template is patched as with kRollout.
  bool pod_resize_served = true;
  // Leader election: while false, no cycle runs and nothing is written
  // (empty: always acts).
  std::function<bool()> may_act;

  bool InPlace() const {
    return resize == ResizeMethod::kInPlace && pod_resize_served;
  }
  // "deployment/coredns in namespace kube-system".
  std::string TargetRef() const {
    return target.ToString() + " in namespace " + namespace_;
  }
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_OPTIONS_H_
