// One iteration of node-scale mode's loop, decided in one call from plain
// data (DecideIteration): the nodes' arrivals (their readiness; the
// capacity of groups whose nodes did not come in time given up), the
// planner's snapshot, the ProvisioningRequests (requests_pass.h) and the
// CapacityBuffers (buffers_pass.h) in it, the volumes resolved, Cluster
// Autoscaler's health gate, the atomic scale-ups in flight advanced, then
// one scale-up (an atomic request's, all or nothing, or Decide's for the
// pending pods) and, when it adds no node, what removes nodes (Cluster
// Autoscaler's scale-down, or the input of Karpenter's disruption). What
// comes back is a list of steps of actions for the executor, in order, and
// what the report and the memory need; the memory is brought up to date
// with what does not wait on an outcome, and AbsorbOutcomes adds what
// does. Pure: the caches are for speed only, `timer` is told where steps
// begin and end.
#ifndef PROPSCALER_NODESCALE_PLAN_ITERATION_H_
#define PROPSCALER_NODESCALE_PLAN_ITERATION_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/volumes.h"
#include "nodescale/plan/arrivals_pass.h"
#include "nodescale/plan/atomic_pass.h"
#include "nodescale/plan/buffers_pass.h"
#include "nodescale/plan/command_pass.h"
#include "nodescale/plan/decide.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/plan/node_scale_settings.h"
#include "nodescale/plan/requests_pass.h"
#include "nodescale/plan/simulation/volume_needs.h"

namespace propscaler::nodescale {

// What the loop observed at the iteration's start (run/loop.cc), beside
// the settings and the memory.
struct IterationInput {
  TimePoint now;
  SharedNodes nodes;
  SharedPods pods;
  std::optional<std::vector<PdbState>> pdbs;  // nullopt until listed
  std::vector<NodeGroup> groups;
  GroupOfNode group_of;
  std::shared_ptr<const kube::VolumeObjects> volumes;
  // With --enable-provisioning-requests: the requests and their templates
  // (nullopt until listed).
  std::vector<kube::ProvisioningRequest> requests;
  std::optional<kube::PodTemplateMap> templates;
  std::vector<ObservedBuffer> buffers;
  PriorityConfig priorities;
  // The drain's pass just made (RemovalProgress) and what it holds now.
  RemovalProgress drained;
  RemovalsInFlight in_flight;
  std::set<std::string> removing;  // draining
  bool draining = false;
  std::vector<NodePool> pools;  // declared by the provider
  const NodePoolCatalogue* node_pools = nullptr;
  // Null: no scale-up this iteration (the expanders' config is broken).
  ExpanderChain* expander = nullptr;
  bool may_act = false;
  // Between iterations, for a batch of pending pods: no atomic scale-up
  // advanced and nothing removed.
  bool scale_up_only = false;
  SnapshotNodeCache* node_cache = nullptr;
  ResolvedPodCache* volume_cache = nullptr;
  DecisionTimer* timer = nullptr;
};

// Actions the executor runs in order; a step whose `unless_scaled_up` is
// set runs only when the iteration did not scale up (ScaledUp: Cluster
// Autoscaler removes nothing in a loop that scaled up). A scale-down step
// runs even without actions (its timers are the memory's once it runs),
// and so does the disruption step.
struct IterationStep {
  enum class Kind {
    kGiveUp,          // CapacityGivenUp's, one step a group
    kRequests,        // the ProvisioningRequests' writes and deletes
    kAtomicGiveBack,  // one step a give-back
    kAtomicScaleUp,   // its increases then its Provisioned write
    kScaleUp,
    kBufferStatus,
    kScaleDown,
    // Karpenter's disruption command's pass (command_pass.h): its
    // replacement's launch, or its nodes handed to the drain, or none.
    kDisruption,
  };
  Kind kind = Kind::kScaleUp;
  std::vector<NodeScaleAction> actions;
  bool all_or_nothing = false;  // stop at the first failure
  bool unless_scaled_up = false;
  size_t index = 0;  // of its give-up or give-back
};

struct IterationDecision {
  Arrivals arrivals;
  // The nodes decided on: the observed ones but those given up.
  SharedNodes nodes;
  // The groups as decided on (given-up targets lowered).
  std::vector<NodeGroup> groups;
  ClusterSnapshot snapshot;
  ClaimCounts claims;
  RequestsPass requests;
  BuffersPass buffers;
  ReadinessCounts readiness;
  // Empty while healthy; else why the iteration stops after its requests.
  std::string unhealthy;
  std::string health_was;  // the reason the iteration before stopped for
  AtomicAdvance atomic;
  // The atomic request planned this iteration, when one was due.
  std::optional<AtomicScaleUpDecision> atomic_scale_up;
  ScaleUpPlan scale_up;
  RemovalPath removal = RemovalPath::kNone;
  std::optional<ScaleDownDecision> scale_down;
  // kDisruption, when a command may be checked or planned: the plan's
  // input, and the plan when no command is in flight.
  std::optional<DisruptionInput> disruption_input;
  std::optional<DisruptionPlan> disruption;
  // The command's pass: planned, or the one in flight advanced.
  CommandPass command;
  std::vector<IterationStep> steps;
};

// Into `*decision`, which is made empty first and must stay where it is
// while used: its disruption input points at its snapshot.
void DecideIteration(const IterationInput& input,
                     const NodeScaleSettings& settings, LoopMemory* memory,
                     IterationDecision* decision);

// What the executor did with each step, in order.
struct StepOutcome {
  bool ran = false;                    // StepRuns said so
  std::vector<ActionOutcome> actions;  // one per action
};
struct IterationOutcomes {
  std::vector<StepOutcome> steps;
};

// Whether the iteration asked for nodes: an atomic request's scale-up
// (whatever its outcome), or an IncreaseSize of the scale-up accepted.
bool ScaledUp(const IterationDecision& decision,
              const IterationOutcomes& outcomes);
// Whether step `step` runs after `outcomes` of the steps before it.
bool StepRuns(const IterationDecision& decision, size_t step,
              const IterationOutcomes& outcomes);

// The memory told what the steps' outcomes were: the requests written,
// the backoffs of requests and groups, the capacity on its way, the atomic
// scale-ups asked for, the drain's removals, the scale-down's timers and
// the disruption command in flight.
void AbsorbOutcomes(const IterationDecision& decision,
                    const IterationOutcomes& outcomes, TimePoint now,
                    LoopMemory* memory);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_ITERATION_H_
