#include "nodescale/run/loop.h"

#include <glog/logging.h>

#include <set>
#include <sstream>

#include "common/duration.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/simulation/node_volume_limits.h"
#include "nodescale/plan/simulation/volume_needs.h"
#include "nodescale/run/decision_clock.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {
namespace {

// A registered node in Cluster Autoscaler's buckets: being deleted (its
// ToBeDeleted taint), else by its readiness.
void CountCaNode(const NodeState& node, Readiness readiness,
                 CaNodeCounts* counts) {
  if (HasTaint(node, kToBeDeletedTaint)) {
    ++counts->being_deleted;
    return;
  }
  switch (readiness) {
    case Readiness::kReady:
      ++counts->ready;
      break;
    case Readiness::kNotStarted:
      ++counts->not_started;
      break;
    case Readiness::kUnready:
      ++counts->unready;
      break;
  }
}

int64_t CountUnschedulable(const SharedPods& pods) {
  int64_t unschedulable = 0;
  for (const LivePod& pod : pods) {
    if (IsPending(pod.state) && pod.unschedulable) ++unschedulable;
  }
  return unschedulable;
}

}  // namespace

NodeScaleLoop::NodeScaleLoop(LoopClients api, Provider* provider,
                             const LiveObjectStore* state,
                             const NodeScaleReporter* reporter,
                             const Clock* clock, LoopOptions options,
                             std::function<bool()> may_act)
    : api_(api),
      provider_(provider),
      state_(state),
      reporter_(reporter),
      clock_(clock),
      options_(std::move(options)),
      may_act_(std::move(may_act)),
      memory_(GroupBackoff(options_.initial_backoff, options_.max_backoff),
              ProvisionTracker(options_.max_node_provision_time),
              ScaleDownTimers(options_.delays),
              ProvReqBackoff(options_.provreq_initial_backoff,
                             options_.provreq_max_backoff,
                             options_.provreq_backoff_cache)),
      executor_(
          {api_.nodes, api_.requests, api_.cluster_state}, provider_,
          [state] { return state->Pods(); }, reporter_, clock_, may_act_,
          options_.max_graceful_termination),
      arrivals_(Context()),
      health_(Context()),
      priorities_(Context(), provider_, api_.config_maps),
      requests_(Context()),
      atomic_(Context(), &requests_),
      buffers_(Context(), api_.cluster_state),
      scale_down_(Context()),
      disruption_(Context(), provider_) {}

LoopContext NodeScaleLoop::Context() {
  return {&executor_, reporter_, state_, clock_, &options_, &memory_};
}

Status NodeScaleLoop::ReadyToIterate() const {
  if (!state_->Synced()) {
    return Status::Unavailable(
        "waiting for the first list of pods, nodes and volume objects");
  }
  return provider_->Ready();
}

Status NodeScaleLoop::ReadCluster(LoopIteration* it) {
  it->now = clock_->Now();
  it->nodes = state_->Nodes();
  it->pods = state_->Pods();
  it->unschedulable = CountUnschedulable(it->pods);
  it->pdbs = state_->Pdbs();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups(it->nodes);
  if (!groups.ok()) return groups.status();
  it->groups = std::move(groups).value();
  it->group_of = [this](const NodeState& node) {
    return provider_->NodeGroupOf(node);
  };
  arrivals_.Arrive(it);
  it->snapshot = BuildLiveSnapshot(it->nodes, it->pods, it->group_of,
                                   it->readiness, it->now,
                                   {options_.new_pod_scale_up_delay,
                                    options_.expendable_pods_priority_cutoff},
                                   &node_cache_);
  // Until they are listed, scale-down plans without PodDisruptionBudgets
  // (the eviction still enforces them) and disruption waits.
  if (it->pdbs) it->snapshot.pdbs = *it->pdbs;
  requests_.Handle(it);
  buffers_.Inject(it);
  // After the buffers: their pods' claims are placed as a real pod's.
  const std::shared_ptr<const VolumeObjects> volumes = state_->Volumes();
  const ClaimCounts claims =
      ResolveSnapshotVolumes(volumes, &it->snapshot, &volume_cache_);
  reporter_->Claims(claims);
  if (!volumes->unreadable.empty()) {
    reporter_->HeldForVolumes(it->pods, UnreadableVolumesReason(*volumes));
  }
  for (auto& [group, model] :
       TemplatesOfLiveNodes(it->snapshot, options_.scale_up.taints)) {
    memory_.scale_up.remembered_templates[group] = std::move(model);
  }
  return Status::Ok();
}

Status NodeScaleLoop::RunOnce() {
  LoopIteration it;
  if (Status read = ReadCluster(&it); !read.ok()) {
    reporter_->ProviderUnreadable(provider_->NodePools() != nullptr);
    WriteStatus(it, read, /*cluster_read=*/false);
    return read;
  }
  memory_.NoteRemovals(executor_.AdvanceDrain(it.View()), it.now);
  if (Status health = health_.Check(it); !health.ok()) {
    WriteStatus(it, health);
    ReturnNodes(&it.snapshot, &node_cache_);
    return Status::Ok();
  }
  atomic_.Advance(&it);
  Result<std::unique_ptr<ExpanderChain>> chain = PrepareScaleUp(&it);
  LOG_IF(ERROR, !chain.ok()) << chain.status().message();
  const bool atomic = chain.ok() && atomic_.ScaleUp(chain->get(), &it);
  DecisionClock timer(clock_, reporter_);
  DecideInput input =
      DecideInputOf(it, chain.ok() ? chain->get() : nullptr, &timer);
  std::optional<DisruptionInput> disruption;
  input.removal = disruption_.Path();
  input.in_flight = executor_.drain().InFlight();
  if (input.removal == RemovalPath::kDisruption && disruption_.MayPlan(it)) {
    disruption = disruption_.InputOf(it);
    input.disruption = &*disruption;
  }
  const Decisions decisions = atomic ? Decisions() : Decide(input);
  const bool scaled_up = atomic || ExecuteScaleUp(decisions.scale_up, &it);
  buffers_.WriteStatuses(it);
  if (!scaled_up && input.removal == RemovalPath::kDisruption) {
    disruption_.Disrupt(decisions.disruption, &it);
  } else if (!scaled_up && decisions.scale_down) {
    scale_down_.Apply(*decisions.scale_down, &it);
  }
  WriteStatus(it, Status::Ok());
  ObserveDuration(it, "full");
  ReturnNodes(&it.snapshot, &node_cache_);
  return Status::Ok();
}

Status NodeScaleLoop::RunScaleUp() {
  LoopIteration it;
  if (Status read = ReadCluster(&it); !read.ok()) {
    WriteStatus(it, read, /*cluster_read=*/false);
    return read;
  }
  if (Status health = health_.Check(it); !health.ok()) {
    WriteStatus(it, health);
    ReturnNodes(&it.snapshot, &node_cache_);
    return Status::Ok();
  }
  Result<std::unique_ptr<ExpanderChain>> chain = PrepareScaleUp(&it);
  DecisionClock timer(clock_, reporter_);
  if (!chain.ok()) {
    LOG(ERROR) << chain.status().message();
  } else if (atomic_.ScaleUp(chain->get(), &it) ||
             ExecuteScaleUp(
                 Decide(DecideInputOf(it, chain->get(), &timer)).scale_up,
                 &it)) {
    WriteStatus(it, Status::Ok());
  }
  buffers_.WriteStatuses(it);
  ObserveDuration(it, "scale-up");
  ReturnNodes(&it.snapshot, &node_cache_);
  return Status::Ok();
}

void NodeScaleLoop::ObserveDuration(const LoopIteration& it, const char* kind) {
  reporter_->LoopDuration(kind, clock_->Now() - it.now);
}

Result<std::unique_ptr<ExpanderChain>> NodeScaleLoop::PrepareScaleUp(
    LoopIteration* it) {
  reporter_->UnschedulablePods(it->unschedulable);
  memory_.NoteGroupsForScaleUp(it->nodes, it->group_of, it->readiness,
                               it->groups, options_.node_health, it->now);
  it->priorities = priorities_.Current();
  return MakeExpanderChain(options_.expander, it->priorities, &rng_);
}

DecideInput NodeScaleLoop::DecideInputOf(const LoopIteration& it,
                                         ExpanderChain* expander,
                                         DecisionTimer* timer) const {
  DecideInput input;
  input.timer = timer;
  input.snapshot = &it.snapshot;
  input.groups = &it.groups;
  input.settings = &options_;
  input.memory = &memory_;
  input.expander = expander;
  input.node_pools = provider_->NodePools();
  input.now = it.now;
  return input;
}

bool NodeScaleLoop::ExecuteScaleUp(const ScaleUpPlan& plan, LoopIteration* it) {
  const std::map<std::string, const LivePod*> pods = it->PendingPodsByKey();
  const std::vector<ActionOutcome> outcomes =
      executor_.Run(ScaleUpActions(plan), it->View());
  bool scaled = false;
  for (size_t i = 0; i < plan.increases.size(); ++i) {
    const GroupIncrease& increase = plan.increases[i];
    const ActionOutcome& outcome = outcomes[i];
    const NodeGroup* group = it->Group(increase.group);
    if (!outcome.ran || group == nullptr) continue;
    LOG(INFO) << "scale-up: " << DescribeIncrease(increase, *group) << " for "
              << increase.pods.size() << " pods";
    ObserveWaits(increase, pods);
    scaled |=
        NoteIncrease(Context(), increase, *group, outcome.status, it->now);
  }
  if (scaled) memory_.timers.ScaledUp(it->now);
  reporter_->ScaleUpEvents(plan, it->groups, pods);
  buffers_.NoteUnfit(plan, it);
  return scaled;
}

void NodeScaleLoop::ObserveWaits(
    const GroupIncrease& increase,
    const std::map<std::string, const LivePod*>& pods) const {
  const TimePoint now = clock_->Now();
  for (const std::string& key : increase.pods) {
    auto found = pods.find(key);
    if (found == pods.end() ||
        found->second->unschedulable_since == TimePoint{})
      continue;
    reporter_->PodWaited(now - found->second->unschedulable_since);
  }
}

CaStatusInput NodeScaleLoop::CaStatusInputOf(const LoopIteration& it,
                                             bool healthy) const {
  CaStatusInput input{.now = it.now,
                      .cluster_healthy = healthy,
                      .scale_down_probe = memory_.last_scale_down_pass,
                      .health = options_.node_health};
  std::map<std::string, CaNodeCounts, std::less<>> by_group;
  std::map<std::string, int64_t, std::less<>> candidates;
  for (size_t i = 0; i < it.nodes.size(); ++i) {
    const NodeState& node = it.nodes[i].state;
    const std::string group = it.group_of(node);
    CountCaNode(node, it.readiness[i], &input.cluster);
    if (group.empty()) continue;
    CountCaNode(node, it.readiness[i], &by_group[group]);
    if (memory_.timers.IsUnneeded(node.name)) ++candidates[group];
  }
  for (const NodeGroup& group : it.groups) {
    CaGroupInput status{group.name, group.min_size, group.max_size,
                        group.target_size, by_group[group.name]};
    CaNodeCounts& counts = status.counts;
    const int64_t unregistered =
        std::max<int64_t>(0, group.target_size - counts.Registered());
    const std::optional<TimePoint> deadline =
        memory_.provision.Deadline(group.name);
    (deadline && it.now > *deadline ? counts.long_unregistered
                                    : counts.unregistered) = unregistered;
    if (deadline) status.upcoming = memory_.provision.Upcoming(group.name);
    if (const BackoffReason* reason = memory_.backoff.ReasonOf(group.name);
        reason != nullptr && memory_.backoff.BackedOff(group.name, it.now)) {
      status.backoff = *reason;
    }
    status.candidates = candidates[group.name];
    input.cluster.unregistered += counts.unregistered;
    input.cluster.long_unregistered += counts.long_unregistered;
    input.groups.push_back(std::move(status));
  }
  return input;
}

void NodeScaleLoop::WriteStatus(const LoopIteration& it, const Status& health,
                                bool cluster_read) {
  StatusReport report;
  report.time = it.now;
  report.health = health.ok() ? "Healthy" : "Unhealthy: " + health.message();
  report.pending_pods = it.unschedulable;
  report.last_scale_up = memory_.last_scale_up;
  report.last_scale_down = memory_.last_scale_down;
  report.disruption_commands = disruption_.Lines();
  report.buffers = BufferStage::Lines(it);
  report.provisioning_requests = it.provisioning_requests;
  for (const BlockedCandidate& blocked : memory_.disruption.blocked) {
    report.disruption_blocked.push_back(
        blocked.node + " (" +
        std::string(DisruptionMethodName(blocked.method)) +
        "): " + blocked.reason);
  }
  const std::map<std::string, ReadinessCounts> by_group =
      it.group_of ? ReadinessByGroup(it.nodes, it.group_of, it.readiness)
                  : std::map<std::string, ReadinessCounts>();
  for (const NodeGroup& group : it.groups) {
    auto found = by_group.find(group.name);
    const ReadinessCounts counts =
        found == by_group.end() ? ReadinessCounts() : found->second;
    GroupStatus status{group.name,
                       group.min_size,
                       group.max_size,
                       group.target_size,
                       counts.ready,
                       counts.unready,
                       counts.not_started,
                       memory_.provision.Upcoming(group.name),
                       memory_.backoff.BackedOff(group.name, it.now)
                           ? memory_.backoff.Until(group.name)
                           : TimePoint()};
    report.groups.push_back(status);
  }
  if (cluster_read) {
    report.ca = CaStatusInputOf(it, health.ok());
  }
  reporter_->Report(report, may_act_());
  if (const NodePoolCatalogue* pools = provider_->NodePools()) {
    if (cluster_read) {
      reporter_->NodePools({&it.nodes, &it.pods, pools, it.unschedulable});
    } else {
      reporter_->NodePoolsUnsynced();
    }
  }
}

}  // namespace propscaler::nodescale
