// Node-scale mode's control loop. Every --scan-interval: read the provider's
// groups, track upcoming capacity (back off groups whose nodes do not become
// Ready within --max-node-provision-time and give that capacity up), plan a
// scale-up with the core for unschedulable pods and ask the provider for the
// nodes; else plan a scale-down, taint unneeded nodes, and after the
// unneeded time drain (evict) and delete them, empty ones in bulk, others
// one at a time. Tells people through its reporter (Events, metrics, the
// status board and the propscaler-status ConfigMap: node_scale_reporter.h).
//
// Time comes from an injected Clock; `may_act` (leader election) is asked
// before every write, so losing the lease stops acting at once.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "common/mutex.h"
#include "common/status.h"
#include "kube/client/client.h"
#include "nodescale/expander/priority.h"
#include "nodescale/plan/decide.h"
#include "nodescale/plan/disruption/command_progress.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/disruption_policy.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/health/provision_tracker.h"
#include "nodescale/plan/provisioning_requests/atomic_scale_up.h"
#include "nodescale/plan/provisioning_requests/check_capacity_batch.h"
#include "nodescale/plan/provisioning_requests/provreq_backoff.h"
#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"
#include "nodescale/plan/scale_down/removal_choice.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_down/scale_down_timers.h"
#include "nodescale/plan/scale_down/soft_taints.h"
#include "nodescale/plan/scale_up/group_backoff.h"
#include "nodescale/plan/scale_up/pending_batch.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/volume_needs.h"
#include "nodescale/provider/provider.h"
#include "nodescale/run/action_executor.h"
#include "nodescale/run/command_queue.h"
#include "nodescale/run/node_scale_reporter.h"
#include "nodescale/run/removal_queue.h"
#include "nodescale/run/status_report.h"

namespace propscaler::nodescale {

struct BufferResolution;
struct ChunkBound;

struct LoopOptions {
  std::string namespace_;
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
  // Reads Cluster Autoscaler's priority expander ConfigMap (app/ hands in
  // its watched copy); empty: a GET each loop that uses it.
  std::function<Result<kube::ConfigMap>()> read_priority_config;
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

// The API roles the loop uses (kube/client/client.h), not the whole client.
struct LoopClients {
  const kube::ClusterStateClient* cluster_state;  // CapacityBuffers
  const kube::ConfigMapClient* config_maps;       // the priority config
  const kube::ProvisioningRequestClient* requests;
  const kube::NodeActionClient* nodes;  // taints, evictions

  static LoopClients Of(const kube::Client* client) {
    return {client, client, client, client};
  }
};

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
  struct Iteration;
  // Reads the store and the provider's groups into `*it`, with the
  // planner's snapshot.
  Status ReadCluster(Iteration* it);
  void ObserveDuration(const Iteration& it, const char* kind);
  // The tracker told of each group's arrived nodes (it->readiness); gives up
  // the capacity of the groups it reports overdue. Whether nodes were given
  // up (it->nodes changed, so it->readiness is stale).
  bool TrackProvisioning(Iteration* it);
  // Each node's readiness (plan/health/node_health.h).
  std::vector<Readiness> ClassifyNodes(const Iteration& it) const;
  // With --enable-csi-node-aware-scheduling: false when the node's CSINode
  // lacks a driver of its group's remembered template.
  bool CsiDriversRegistered(const NodeState& node, const std::string& group,
                            const kube::VolumeObjects& volumes) const;
  // The health gate (loop_health.cc): false while too many nodes are
  // Unready, when the iteration stops after saying so (log, Event, status)
  // and forgetting the unneeded nodes' timers, as Cluster Autoscaler does.
  bool ClusterHealthy(Iteration* it);
  // Whether nodes were taken out of it->nodes.
  bool GiveUpCapacity(const NodeGroup& group, Iteration* it);
  // The scale-up's metrics and memory brought up to date; the expanders.
  Result<std::unique_ptr<ExpanderChain>> PrepareScaleUp(Iteration* it);
  DecideInput DecideInputOf(const Iteration& it, ExpanderChain* expander) const;
  // Asks the provider for the plan's nodes; whether any were added.
  bool ExecuteScaleUp(const ScaleUpPlan& plan, Iteration* it);
  // CapacityBuffers (loop_buffers.cc): each resolved and its virtual pods
  // added to the snapshot, which the scale-up provides room for and
  // scale-down and disruption keep; after the scale-up, their status.
  void InjectBuffers(Iteration* it);
  // it->buffers[index]: its chunk read, counted (at most `bound`), its
  // virtual pods added.
  void ResolveBuffer(size_t index, const ChunkBound& bound, Iteration* it);
  void NoteUnfitBuffers(const ScaleUpPlan& plan, Iteration* it);
  void WriteBufferStatuses(const Iteration& it);
  // ProvisioningRequests (loop_provisioning.cc), before the buffers: their
  // consuming pods taken out of the plan, their conditions written, the
  // due check-capacity requests checked on the nodes there are, and the
  // room of each provisioned one booked: its pods put first among the
  // pending pods, so that no other pod takes it.
  void HandleProvisioningRequests(Iteration* it);
  // The request's pods from its PodTemplates (at most `limit`).
  Result<std::vector<PodState>> RequestPods(
      const kube::ProvisioningRequest& request, int64_t limit);
  // Its pods to place (RequestPods, at most what the cluster could ever
  // hold); nullopt when they cannot be built, the request then Failed
  // (FailedToCreatePods).
  std::optional<std::vector<PodState>> PodsToPlace(
      const kube::ProvisioningRequest& request, const Iteration& it);
  // Whether they were written (never while this process may not act).
  bool WriteConditions(const kube::ProvisioningRequest& request,
                       const std::vector<kube::ProvReqCondition>& set,
                       const Iteration& it);
  // The due best-effort-atomic request for this iteration's atomic
  // scale-up, its pods built; when another was taken, `line` says it waits.
  void TakeAtomicRequest(const kube::ProvisioningRequest& request,
                         Iteration* it, std::string* line);
  // The due check-capacity requests checked in one batch on the nodes
  // there are; the room of each that fits booked (added to `booked`).
  void CheckDueRequests(
      const std::vector<const kube::ProvisioningRequest*>& due,
      std::vector<PodState>* booked, Iteration* it);
  // best-effort-atomic-scale-up (loop_atomic.cc): the due request's pods
  // planned all or nothing and the plan asked of the provider; whether a
  // node was asked for (the iteration's other scale-up then waits for the
  // next, as Cluster Autoscaler alternates them).
  bool ScaleUpAtomically(ExpanderChain* expander, Iteration* it);
  // Each atomic scale-up in flight advanced as its progress says
  // (plan/provisioning_requests/atomic_scale_up.h).
  void AdvanceAtomicScaleUps(Iteration* it);
  // The registered nodes as the progress sees them; `groups` holds their
  // groups' names, which the nodes point into.
  static std::vector<AtomicNode> AtomicNodesOf(
      const Iteration& it, std::vector<std::string>* groups);
  // Takes the nodes that never registered off their groups' targets, hands
  // the ones that came to the removal queue, and tells the request.
  void GiveBack(const AtomicScaleUp& scale_up, const AtomicProgress& progress,
                const std::vector<AtomicNode>& nodes, Iteration* it);
  // propscaler_provisioning_requests, 0 for a (class, state) emptied.
  void PublishCounts(
      const std::map<std::pair<std::string, std::string>, int64_t>& counts);
  // A NotTriggerScaleUp Event, once, on each pending pod that consumes a
  // request (`waiting`: pod key -> namespace/request).
  void TellConsumingPods(const std::map<std::string, std::string>& waiting,
                         const Iteration& it);
  static std::vector<std::string> BufferLines(const Iteration& it);
  PriorityConfig CurrentPriorities();
  void NotePriorities(const std::string& note);
  // The pending pods by namespace/name.
  static std::map<std::string, const LivePod*> PodsByKey(const Iteration& it);
  // How long the pods of `increase` waited since the scheduler gave up.
  void ObserveWaits(const GroupIncrease& increase,
                    const std::map<std::string, const LivePod*>& pods) const;
  // The timers and candidate taints as decided; the removals due handed to
  // the removal queue.
  void ScaleDown(const ScaleDownDecision& decision, Iteration* it);
  // Nodes chosen for removal in this pass get ToBeDeleted instead.
  void UpdateCandidateTaints(const Iteration& it,
                             const std::vector<NodeRemoval>& removing);
  // Hands the nodes to the removal queue as one set.
  void RemoveNodes(const std::vector<RemovalQueue::Target>& targets,
                   bool all_or_nothing, Iteration* it);
  ClusterView ClusterViewOf(const Iteration& it, const SharedPods& pods) const;
  // The timers and the status take what the removal queue did.
  void NoteRemovals(const RemovalQueue::Progress& progress, TimePoint now);
  // The status of this iteration; Cluster Autoscaler's too, unless the
  // cluster could not be read.
  void WriteStatus(const Iteration& it, const Status& health,
                   bool cluster_read = true);
  CaStatusInput CaStatusInputOf(const Iteration& it, bool healthy) const;

  // Karpenter-style disruption (loop_disruption.cc): plan, wait and
  // validate, launch the replacement, wait for it to be Ready, then remove
  // the old nodes through the scale-down path (taint, drain, delete).
  bool KarpenterDisruption() const;
  // Notes the pods' moves; whether a new command may be planned now.
  bool MayPlanDisruption(Iteration* it);
  // The command in flight advanced, else the plan's command proposed.
  void Disrupt(const std::optional<DisruptionPlan>& plan, Iteration* it);
  DisruptionInput DisruptionInputOf(const Iteration& it);
  void NotePodEvents(const Iteration& it);
  // Does what a pass of the command queue asks of the loop.
  void Execute(const CommandQueue::Step& step, Iteration* it);
  void ReportDisruption(const DisruptionPlan& plan, const Iteration& it);

  const LoopClients api_;
  Provider* provider_;
  const LiveObjectStore* state_;
  const NodeScaleReporter* reporter_;
  const Clock* clock_;
  const LoopOptions options_;
  std::function<bool()> may_act_;
  std::mt19937_64 rng_{std::random_device{}()};
  GroupBackoff backoff_;
  ProvReqBackoff provreq_backoff_;
  // Requests this process wrote, by uid: the resourceVersion it read then
  // (not acted on again before the watch brings the write).
  std::map<std::string, std::string> provreq_acted_;
  // Every (class, state) the metric has shown, so that one emptied reads 0.
  std::map<std::pair<std::string, std::string>, int64_t> counts_seen_;
  std::vector<AtomicScaleUp> atomic_scale_ups_;
  // Consuming pods already told why they trigger no scale-up, by key.
  std::set<std::string> consumers_told_;
  ProvisionTracker provision_;
  ScaleDownTimers timers_;
  ScaleUpMemory memory_;
  SnapshotNodeCache node_cache_;
  ResolvedPodCache volume_cache_;
  std::string last_scale_up_ = "never";
  // When scale-down last planned (Cluster Autoscaler's scaleDown probe).
  std::optional<TimePoint> last_scale_down_pass_;
  std::string last_scale_down_ = "never";
  std::string last_priority_note_;  // logged once until it changes
  std::string last_unhealthy_;      // logged once until it changes
  // Every write of the loop's decisions, and the drain: nodes from their
  // ToBeDeleted taint to the provider's delete.
  ActionExecutor executor_;

  // The disruption command between its choice and the removal queue:
  // validating, or waiting for its replacement.
  CommandQueue commands_;
  // Per node: a fingerprint of its pods and when it last changed.
  struct PodEvents {
    uint64_t fingerprint = 0;
    TimePoint last_change;
  };
  std::map<std::string, PodEvents> pod_events_;
  std::set<std::string> seen_ready_;
  std::vector<BlockedCandidate> blocked_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_H_
