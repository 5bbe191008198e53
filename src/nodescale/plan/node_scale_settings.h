// Node-scale mode's settings as its decisions read them: every threshold,
// delay, size, limit and mode choice its flags set (app/node_scale_flags
// checked them), plain data. The loop's options (run/loop_options.h) add
// what only the running process has: its namespace and the priority
// config's reader.
#ifndef PROPSCALER_NODESCALE_PLAN_NODE_SCALE_SETTINGS_H_
#define PROPSCALER_NODESCALE_PLAN_NODE_SCALE_SETTINGS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/clock.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/disruption_policy.h"
#include "nodescale/plan/health/node_health.h"
#include "nodescale/plan/provisioning_requests/check_capacity_batch.h"
#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"
#include "nodescale/plan/scale_down/removal_choice.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_down/scale_down_timers.h"
#include "nodescale/plan/scale_down/soft_taints.h"
#include "nodescale/plan/scale_up/pending_batch.h"
#include "nodescale/plan/scale_up/scale_up.h"

namespace propscaler::nodescale {

struct NodeScaleSettings {
  std::string expander = "least-waste";
  Duration scan_interval = std::chrono::seconds(10);
  Duration new_pod_scale_up_delay = Duration(0);
  Duration max_node_provision_time = std::chrono::minutes(15);
  // Cluster Autoscaler's flag: replicas that never registered within
  // max_node_provision_time are taken off the target even below the
  // group's minimum size.
  bool force_delete_unregistered_nodes = false;
  Duration initial_backoff = std::chrono::minutes(5);
  Duration max_backoff = std::chrono::minutes(30);
  bool scale_down_enabled = true;
  ScaleDownDelays delays;
  ScaleDownParallelism scale_down_parallelism;
  // --max-bulk-soft-taint-count / -time (plan/scale_down/soft_taints.h).
  SoftTaintBudget soft_taints;
  // How long a drained node waits for its evicted pods to go.
  Duration max_graceful_termination = std::chrono::minutes(10);
  ScaleUpConfig scale_up;
  ScaleDownConfig scale_down;
  // --disruption (plan/disruption_policy.h).
  DisruptionPolicy disruption = DisruptionPolicy::kAuto;
  DisruptionOptions disruption_options;
  // Consolidation waits this long and checks its command again (Karpenter's
  // 15 s).
  Duration disruption_validation_delay = std::chrono::seconds(15);
  // A batch of pending pods is acted on between iterations when it closes.
  BatchWindow batch;
  // Pods below this priority neither trigger a scale-up nor keep a node,
  // as Cluster Autoscaler's --expendable-pods-priority-cutoff.
  int32_t expendable_pods_priority_cutoff = -10;
  // Cluster Autoscaler's node readiness (--max-node-startup-time, startup
  // taints) and its health gate.
  NodeHealthConfig node_health;
  // --enable-provisioning-requests and Cluster Autoscaler's settings of
  // them: the backoff of a request that found no capacity, and how many
  // check-capacity requests one loop checks (1 unless
  // --check-capacity-batch-processing).
  bool provisioning_requests = false;
  ProvReqOptions provisioning;
  Duration provreq_initial_backoff = std::chrono::minutes(1);
  Duration provreq_max_backoff = std::chrono::minutes(10);
  size_t provreq_backoff_cache = 1000;
  CheckCapacityBatch check_capacity;  // its size and timebox
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_NODE_SCALE_SETTINGS_H_
