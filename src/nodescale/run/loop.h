// Node-scale mode's control loop. Every --scan-interval: observe (the
// store's nodes, pods, budgets, volume objects, ProvisioningRequests and
// PodTemplates; the provider's groups; each CapacityBuffer's chunk; the
// priority config; what the drain holds), decide in one call
// (plan/iteration.h: arrivals, the snapshot, requests, buffers, health,
// the atomic scale-ups, the scale-up, and when it adds no node Cluster
// Autoscaler's scale-down or the input of Karpenter's disruption) and
// execute: every write is an action (plan/node_scale_action.h) carried
// out by the one executor (action_executor.h), step by step, whose drain
// removes nodes; the outcomes go back into the memory (AbsorbOutcomes)
// and to people (report/iteration_report.h). Karpenter's disruption
// command, from its plan to the drain, is a step of its own each
// iteration (plan/command_pass.h) and the command in flight is memory.
// What the loop remembers between iterations is one LoopMemory
// (plan/loop_memory.h); the drain's nodes are the executor's.
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
#include "nodescale/plan/iteration.h"
#include "nodescale/provider/provider.h"
#include "nodescale/report/node_scale_reporter.h"
#include "nodescale/report/status_report.h"
#include "nodescale/run/action_executor.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/loop_options.h"
#include "nodescale/run/priority_source.h"

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
  // Reads the store and the provider's groups into `*it`.
  Status ReadCluster(LoopIteration* it);
  // Decides, carries out and reports one iteration over `it` (the drain
  // having made `drained` of its pass); whether the cluster was healthy.
  bool Iterate(LoopIteration* it, RemovalProgress drained, bool scale_up_only);
  IterationInput InputOf(const LoopIteration& it, RemovalProgress drained,
                         bool scale_up_only);
  // Each active CapacityBuffer with its chunk as read now.
  std::vector<ObservedBuffer> ReadBuffers() const;
  // The decision's steps, in order, each as StepRuns says: a give-up over
  // the cluster as `observed`, the rest over `it` as decided.
  IterationOutcomes Execute(const IterationDecision& decision,
                            const ClusterView& observed,
                            const ClusterView& decided);
  void ObserveDuration(const LoopIteration& it, const char* kind);
  // The status of this iteration; Cluster Autoscaler's too, unless the
  // cluster could not be read.
  void WriteStatus(const LoopIteration& it, const Status& health,
                   bool cluster_read = true);
  CaStatusInput CaStatusInputOf(const LoopIteration& it, bool healthy) const;

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
  PrioritySource priorities_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_H_
