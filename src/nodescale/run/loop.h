// Node-scale mode's control loop. Every --scan-interval: observe (read the
// store and the provider's groups into a LoopIteration, each node's
// readiness, the capacity on its way given up where overdue, the
// ProvisioningRequests and CapacityBuffers), decide (plan/decide.h: the
// scale-up for unschedulable pods; when it adds no node, Cluster
// Autoscaler's scale-down or Karpenter's disruption) and execute: every
// write is an action (plan/node_scale_action.h) carried out by the one
// executor (action_executor.h), whose drain removes nodes. Each concern is
// a stage of its own (node_arrivals, health_gate, provisioning_request_stage,
// atomic_scale_up_stage, buffer_stage, scale_down_stage, disruption_stage,
// priority_source), over one LoopContext; what the loop remembers between
// iterations is one LoopMemory (plan/loop_memory.h). Tells people through
// its reporter (Events, metrics, the status board and the status ConfigMap:
// node_scale_reporter.h).
//
// Time comes from an injected Clock; `may_act` (leader election) is asked
// before every write, so losing the lease stops acting at once.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_H_

#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "common/status.h"
#include "nodescale/plan/decide.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/provider/provider.h"
#include "nodescale/run/action_executor.h"
#include "nodescale/run/atomic_scale_up_stage.h"
#include "nodescale/run/buffer_stage.h"
#include "nodescale/run/disruption_stage.h"
#include "nodescale/run/health_gate.h"
#include "nodescale/run/loop_context.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/loop_options.h"
#include "nodescale/run/node_arrivals.h"
#include "nodescale/report/node_scale_reporter.h"
#include "nodescale/run/priority_source.h"
#include "nodescale/run/provisioning_request_stage.h"
#include "nodescale/run/scale_down_stage.h"
#include "nodescale/report/status_report.h"

namespace propscaler::nodescale {

class NodeScaleLoop {
 public:
  NodeScaleLoop(LoopClients api, Provider* provider,
                const LiveObjectStore* state, const NodeScaleReporter* reporter,
                const Clock* clock, LoopOptions options,
                std::function<bool()> may_act);

  // OK once the store's pods and nodes and what the provider reads are in;
  // else what it waits for.
  Status ReadyToIterate() const;
  // One iteration: scale-up, else scale-down or disruption.
  Status RunOnce();
  // Scale-up alone, for a batch of pending pods between iterations.
  Status RunScaleUp();

 private:
  // Reads the store and the provider's groups into `*it`, with the
  // planner's snapshot, the requests' and buffers' pods in it.
  Status ReadCluster(LoopIteration* it);
  void ObserveDuration(const LoopIteration& it, const char* kind);
  // The scale-up's metrics and memory brought up to date; the expanders.
  Result<std::unique_ptr<ExpanderChain>> PrepareScaleUp(LoopIteration* it);
  // `timer` times the decision's steps (decision_clock.h).
  DecideInput DecideInputOf(const LoopIteration& it, ExpanderChain* expander,
                            DecisionTimer* timer) const;
  // The plan's increases carried out; whether any node was added.
  bool ExecuteScaleUp(const ScaleUpPlan& plan, LoopIteration* it);
  // How long the pods of `increase` waited since the scheduler gave up.
  void ObserveWaits(const GroupIncrease& increase,
                    const std::map<std::string, const LivePod*>& pods) const;
  // The status of this iteration; Cluster Autoscaler's too, unless the
  // cluster could not be read.
  void WriteStatus(const LoopIteration& it, const Status& health,
                   bool cluster_read = true);
  CaStatusInput CaStatusInputOf(const LoopIteration& it, bool healthy) const;
  LoopContext Context();

  const LoopClients api_;
  Provider* provider_;
  const LiveObjectStore* state_;
  const NodeScaleReporter* reporter_;
  const Clock* clock_;
  const LoopOptions options_;
  std::function<bool()> may_act_;
  std::mt19937_64 rng_{std::random_device{}()};
  LoopMemory memory_;
  // Kept between iterations for speed only: each node's and each pod's
  // planner copy where it did not change.
  SnapshotNodeCache node_cache_;
  ResolvedPodCache volume_cache_;
  ActionExecutor executor_;
  NodeArrivals arrivals_;
  HealthGate health_;
  PrioritySource priorities_;
  ProvisioningRequestStage requests_;
  AtomicScaleUpStage atomic_;
  BufferStage buffers_;
  ScaleDownStage scale_down_;
  DisruptionStage disruption_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_H_
