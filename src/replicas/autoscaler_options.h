// Replica mode's settings, from its flags (app/replica_options.h).
#ifndef PROPSCALER_REPLICAS_AUTOSCALER_OPTIONS_H_
#define PROPSCALER_REPLICAS_AUTOSCALER_OPTIONS_H_

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/taint_filter.h"
#include "kube/model/scale_target.h"
#include "replicas/default_params.h"

namespace propscaler {

struct AutoscalerOptions {
  std::string namespace_;
  std::string configmap;
  std::vector<kube::ScaleTarget> targets;  // --target
  // --target-selector: every matching workload is a target too.
  std::optional<kube::TargetSelector> target_selector;
  // --hpa-floor: the HorizontalPodAutoscaler whose spec.minReplicas is set
  // to the computed count instead of its target's replicas (with
  // --hpa-floor-auto, `automatic` and no name: the one HPA that scales a
  // target, for each target), through autoscaling/`version` ("v2" where
  // served, else "v1").
  struct HpaFloor {
    std::string name;
    std::string version = "v1";
    bool automatic = false;
  };
  std::optional<HpaFloor> hpa_floor;
  std::optional<ConfigMapData> default_params;
  std::string node_selector;    // --nodelabels, passed to the server as is
  TaintFilter excluded_taints;  // --exclude-node-taints
  // --pod-selector (passed to the server as is; empty: pods are not
  // counted) and --pod-namespace ("": every namespace).
  std::string pod_selector;
  std::string pod_namespace;
  std::chrono::seconds poll_period{10};
  int max_sync_failures = 0;  // 0: never exit
  bool dry_run = false;
  // Leader election: while false, no cycle runs and nothing is written
  // (empty: always acts).
  std::function<bool()> may_act;
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_AUTOSCALER_OPTIONS_H_
