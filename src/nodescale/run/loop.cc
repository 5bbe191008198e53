#include "nodescale/run/loop.h"

#include <glog/logging.h>

#include <set>
#include <sstream>

#include "common/duration.h"
#include "common/utc_time.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/health/capacity_give_up.h"
#include "nodescale/plan/simulation/node_volume_limits.h"
#include "nodescale/plan/simulation/volume_needs.h"
#include "nodescale/run/loop_iteration.h"
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
      backoff_(options_.initial_backoff, options_.max_backoff),
      provreq_backoff_(options_.provreq_initial_backoff,
                       options_.provreq_max_backoff,
                       options_.provreq_backoff_cache),
      provision_(options_.max_node_provision_time),
      timers_(options_.delays),
      executor_(
          {api_.nodes, api_.requests, api_.cluster_state}, provider_,
          [state] { return state->Pods(); }, reporter_, clock_, may_act_,
          options_.max_graceful_termination),
      commands_(&executor_, reporter_, options_.disruption_validation_delay,
                options_.max_node_provision_time, options_.disruption_options) {
}

Status NodeScaleLoop::ReadyToIterate() const {
  if (!state_->Synced()) {
    return Status::Unavailable(
        "waiting for the first list of pods, nodes and volume objects");
  }
  return provider_->Ready();
}

Status NodeScaleLoop::ReadCluster(Iteration* it) {
  it->now = clock_->Now();
  it->nodes = state_->Nodes();
  it->pods = state_->Pods();
  it->pdbs = state_->Pdbs();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups(it->nodes);
  if (!groups.ok()) return groups.status();
  it->groups = std::move(groups).value();
  it->group_of = [this](const NodeState& node) {
    return provider_->NodeGroupOf(node);
  };
  it->readiness = ClassifyNodes(*it);
  if (TrackProvisioning(it)) it->readiness = ClassifyNodes(*it);
  it->snapshot = BuildLiveSnapshot(it->nodes, it->pods, it->group_of,
                                   it->readiness, it->now,
                                   {options_.new_pod_scale_up_delay,
                                    options_.expendable_pods_priority_cutoff},
                                   &node_cache_);
  // Until they are listed, scale-down plans without PodDisruptionBudgets
  // (the eviction still enforces them) and disruption waits.
  if (it->pdbs) it->snapshot.pdbs = *it->pdbs;
  HandleProvisioningRequests(it);
  InjectBuffers(it);
  // After the buffers: their pods' claims are placed as a real pod's.
  const ClaimCounts claims =
      ResolveSnapshotVolumes(state_->Volumes(), &it->snapshot, &volume_cache_);
  reporter_->Claims(claims);
  for (auto& [group, model] :
       TemplatesOfLiveNodes(it->snapshot, options_.scale_up.taints)) {
    memory_.remembered_templates[group] = std::move(model);
  }
  return Status::Ok();
}

Status NodeScaleLoop::RunOnce() {
  Iteration it;
  if (Status read = ReadCluster(&it); !read.ok()) {
    WriteStatus(it, read, /*cluster_read=*/false);
    return read;
  }
  NoteRemovals(executor_.AdvanceDrain(ClusterViewOf(it, it.pods)), it.now);
  if (!ClusterHealthy(&it)) {
    ReturnNodes(&it.snapshot, &node_cache_);
    return Status::Ok();
  }
  AdvanceAtomicScaleUps(&it);
  Result<std::unique_ptr<ExpanderChain>> chain = PrepareScaleUp(&it);
  LOG_IF(ERROR, !chain.ok()) << chain.status().message();
  const bool atomic = chain.ok() && ScaleUpAtomically(chain->get(), &it);
  DecideInput input = DecideInputOf(it, chain.ok() ? chain->get() : nullptr);
  std::optional<DisruptionInput> disruption;
  if (options_.scale_down_enabled) {
    if (!KarpenterDisruption()) {
      input.scale_down = ScaleDownState{&options_.scale_down, &timers_,
                                        executor_.drain().InFlight(),
                                        options_.scale_down_parallelism};
    } else if (MayPlanDisruption(&it)) {
      disruption = DisruptionInputOf(it);
      input.disruption =
          DisruptionState{&*disruption, &options_.disruption_options};
    }
  }
  const Decisions decisions = atomic ? Decisions() : Decide(input);
  const bool scaled_up = atomic || ExecuteScaleUp(decisions.scale_up, &it);
  WriteBufferStatuses(it);
  if (!scaled_up && options_.scale_down_enabled) {
    if (KarpenterDisruption()) {
      Disrupt(decisions.disruption, &it);
    } else if (decisions.scale_down) {
      ScaleDown(*decisions.scale_down, &it);
    }
  }
  WriteStatus(it, Status::Ok());
  ObserveDuration(it, "full");
  ReturnNodes(&it.snapshot, &node_cache_);
  return Status::Ok();
}

Status NodeScaleLoop::RunScaleUp() {
  Iteration it;
  if (Status read = ReadCluster(&it); !read.ok()) {
    WriteStatus(it, read, /*cluster_read=*/false);
    return read;
  }
  if (!ClusterHealthy(&it)) {
    ReturnNodes(&it.snapshot, &node_cache_);
    return Status::Ok();
  }
  Result<std::unique_ptr<ExpanderChain>> chain = PrepareScaleUp(&it);
  if (!chain.ok()) {
    LOG(ERROR) << chain.status().message();
  } else if (ScaleUpAtomically(chain->get(), &it) ||
             ExecuteScaleUp(Decide(DecideInputOf(it, chain->get())).scale_up,
                            &it)) {
    WriteStatus(it, Status::Ok());
  }
  WriteBufferStatuses(it);
  ObserveDuration(it, "scale-up");
  ReturnNodes(&it.snapshot, &node_cache_);
  return Status::Ok();
}

void NodeScaleLoop::ObserveDuration(const Iteration& it, const char* kind) {
  reporter_->LoopDuration(kind, clock_->Now() - it.now);
}

std::vector<Readiness> NodeScaleLoop::ClassifyNodes(const Iteration& it) const {
  std::shared_ptr<const kube::VolumeObjects> volumes;
  if (options_.scale_up.csi_node_aware_scheduling) volumes = state_->Volumes();
  std::map<std::string_view, std::optional<Duration>> startup_times;
  for (const NodeGroup& group : it.groups) {
    if (group.options.max_node_startup_time) {
      startup_times[group.name] = group.options.max_node_startup_time;
    }
  }
  std::vector<Readiness> readiness;
  readiness.reserve(it.nodes.size());
  for (const LiveNode& node : it.nodes) {
    const std::string group = it.group_of(node.state);
    const bool drivers_registered =
        volumes == nullptr || CsiDriversRegistered(node.state, group, *volumes);
    auto startup = startup_times.find(group);
    readiness.push_back(ReadinessOf(
        node.state, it.now, options_.node_health, drivers_registered,
        startup == startup_times.end() ? std::nullopt : startup->second,
        provision_.Deadline(group)));
  }
  return readiness;
}

bool NodeScaleLoop::CsiDriversRegistered(
    const NodeState& node, const std::string& group,
    const kube::VolumeObjects& volumes) const {
  auto model = memory_.remembered_templates.find(group);
  if (model == memory_.remembered_templates.end()) return true;
  auto limits = volumes.node_limits.find(node.name);
  const VolumeLimits* csi_node =
      limits == volumes.node_limits.end() ? nullptr : &limits->second;
  // Limits as the template's were made: allocatable keys too.
  if (HasAllocatableVolumeLimits(node.allocatable)) {
    const VolumeLimits merged = NodeVolumeLimits(node.allocatable, csi_node);
    return !LacksTemplateCsiDriver(&merged, model->second.volume_limits);
  }
  return !LacksTemplateCsiDriver(csi_node, model->second.volume_limits);
}

// A group's progress counts its nodes no longer coming: Ready, or Unready
// (not Ready for longer than --max-node-startup-time).
bool NodeScaleLoop::TrackProvisioning(Iteration* it) {
  const std::map<std::string, ReadinessCounts> by_group =
      ReadinessByGroup(it->nodes, it->group_of, it->readiness);
  std::vector<GroupProgress> progress;
  for (const NodeGroup& group : it->groups) {
    auto found = by_group.find(group.name);
    progress.push_back({group.name, group.target_size,
                        found == by_group.end()
                            ? 0
                            : found->second.ready + found->second.unready,
                        group.options.max_node_provision_time});
  }
  bool gave_up = false;
  for (const std::string& name : provision_.Update(progress, it->now)) {
    for (NodeGroup& group : it->groups) {
      if (group.name == name) gave_up |= GiveUpCapacity(group, it);
    }
  }
  return gave_up;
}

// The group's nodes did not become Ready in time: back it off, remove the
// nodes that never started and stop counting them as upcoming, with
// Cluster Autoscaler's Events (ScaleUpTimedOut; DeleteUnregistered or
// DeleteUnregisteredFailed for the instances that never registered).
bool NodeScaleLoop::GiveUpCapacity(const NodeGroup& group, Iteration* it) {
  const Duration within = group.options.max_node_provision_time.value_or(
      options_.max_node_provision_time);
  const TimePoint until = backoff_.Fail(
      group.name, it->now,
      {"timeout", "Scale-up timed out for node group " + group.name +
                      " after " + SecondsText(within)});
  LOG(WARNING) << "node group " << group.name << ": nodes not Ready within "
               << "--max-node-provision-time; backed off until "
               << FormatMicroTime(until);
  std::vector<RegisteredNode> registered;
  for (size_t i = 0; i < it->nodes.size(); ++i) {
    const NodeState& node = it->nodes[i].state;
    if (it->group_of(node) == group.name) {
      registered.push_back({&node, it->readiness[i]});
    }
  }
  const CapacityGiveUp give_up = PlanCapacityGiveUp(
      group, registered, options_.force_delete_unregistered_nodes);
  std::set<std::string> not_started;
  for (const NodeState* node : give_up.not_started) {
    not_started.insert(node->name);
  }
  if (!executor_.MayAct()) return false;
  reporter_->ScaleUpTimedOut(group.name, within);
  std::vector<NodeScaleAction> actions{
      DeleteNodes{group.name, {not_started.begin(), not_started.end()}}};
  if (give_up.target_decrease > 0) {
    actions.push_back(DecreaseTarget{group.name, give_up.target_decrease});
  }
  const std::vector<ActionOutcome> outcomes = executor_.Run(
      actions, ClusterViewOf(*it, it->pods), ActionExecutor::OnFailure::kStop);
  if (outcomes.size() > 1 && outcomes[1].ran) {
    reporter_->UnregisteredRemoved(group.name, give_up.target_decrease,
                                   outcomes[1].status);
  }
  for (NodeGroup& g : it->groups) {
    if (g.name == group.name) g.target_size = give_up.new_target;
  }
  it->nodes.EraseIf([&](const LiveNode& node) {
    return not_started.contains(node.state.name);
  });
  return !not_started.empty();
}

Result<std::unique_ptr<ExpanderChain>> NodeScaleLoop::PrepareScaleUp(
    Iteration* it) {
  int64_t unschedulable = 0;
  for (const LivePod& pod : it->pods) {
    if (IsPending(pod.state) && pod.unschedulable) ++unschedulable;
  }
  reporter_->UnschedulablePods(unschedulable);
  memory_.backed_off_groups = backoff_.BackedOffGroups(it->now);
  memory_.unhealthy_groups.clear();
  const std::map<std::string, ReadinessCounts> by_group =
      ReadinessByGroup(it->nodes, it->group_of, it->readiness);
  for (const NodeGroup& group : it->groups) {
    auto counts = by_group.find(group.name);
    if (counts == by_group.end()) continue;
    if (std::optional<std::string> why = GroupUnhealthy(
            counts->second, group.target_size, provision_.Upcoming(group.name),
            options_.node_health)) {
      memory_.unhealthy_groups[group.name] = *why;
    }
  }
  it->priorities = CurrentPriorities();
  return MakeExpanderChain(options_.expander, it->priorities, &rng_);
}

DecideInput NodeScaleLoop::DecideInputOf(const Iteration& it,
                                         ExpanderChain* expander) const {
  DecideInput input;
  input.snapshot = &it.snapshot;
  input.groups = &it.groups;
  input.memory = &memory_;
  input.scale_up = &options_.scale_up;
  input.expander = expander;
  input.node_pools = provider_->NodePools();
  input.now = it.now;
  return input;
}

bool NodeScaleLoop::ExecuteScaleUp(const ScaleUpPlan& plan, Iteration* it) {
  const std::map<std::string, const LivePod*> pods = PodsByKey(*it);
  const std::vector<ActionOutcome> outcomes =
      executor_.Run(ScaleUpActions(plan), ClusterViewOf(*it, it->pods));
  bool scaled = false;
  for (size_t i = 0; i < plan.increases.size(); ++i) {
    const GroupIncrease& increase = plan.increases[i];
    const ActionOutcome& outcome = outcomes[i];
    const NodeGroup* group = it->Group(increase.group);
    if (!outcome.ran || group == nullptr) continue;
    LOG(INFO) << "scale-up: " << DescribeIncrease(increase, *group) << " for "
              << increase.pods.size() << " pods";
    ObserveWaits(increase, pods);
    // The group's size changed under the plan (another writer): not the
    // group's failure, so no backoff; the next iteration plans again.
    if (outcome.status.code() == StatusCode::kConflict) continue;
    if (!outcome.status.ok()) {
      reporter_->ScaleUpFailed(group->name);
      backoff_.Fail(group->name, it->now,
                    {"cloudProviderError", outcome.status.message()});
      continue;
    }
    scaled = true;
    provision_.ScaledUp(group->name, it->now);
    reporter_->ScaleUpRequested(group->name);
    last_scale_up_ =
        DescribeIncrease(increase, *group) + " at " + FormatMicroTime(it->now);
  }
  if (scaled) timers_.ScaledUp(it->now);
  reporter_->ScaleUpEvents(plan, it->groups, pods);
  NoteUnfitBuffers(plan, it);
  return scaled;
}

std::map<std::string, const LivePod*> NodeScaleLoop::PodsByKey(
    const Iteration& it) {
  std::map<std::string, const LivePod*> pods;
  for (const LivePod& pod : it.pods) {
    if (IsPending(pod.state)) pods[pod.state.Key()] = &pod;
  }
  return pods;
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

CaStatusInput NodeScaleLoop::CaStatusInputOf(const Iteration& it,
                                             bool healthy) const {
  CaStatusInput input{.now = it.now,
                      .cluster_healthy = healthy,
                      .scale_down_probe = last_scale_down_pass_,
                      .health = options_.node_health};
  std::map<std::string, CaNodeCounts, std::less<>> by_group;
  std::map<std::string, int64_t, std::less<>> candidates;
  for (size_t i = 0; i < it.nodes.size(); ++i) {
    const NodeState& node = it.nodes[i].state;
    const std::string group = it.group_of(node);
    CountCaNode(node, it.readiness[i], &input.cluster);
    if (group.empty()) continue;
    CountCaNode(node, it.readiness[i], &by_group[group]);
    if (timers_.IsUnneeded(node.name)) ++candidates[group];
  }
  for (const NodeGroup& group : it.groups) {
    CaGroupInput status{group.name, group.min_size, group.max_size,
                        group.target_size, by_group[group.name]};
    CaNodeCounts& counts = status.counts;
    const int64_t unregistered =
        std::max<int64_t>(0, group.target_size - counts.Registered());
    const std::optional<TimePoint> deadline = provision_.Deadline(group.name);
    (deadline && it.now > *deadline ? counts.long_unregistered
                                    : counts.unregistered) = unregistered;
    if (deadline) status.upcoming = provision_.Upcoming(group.name);
    if (const BackoffReason* reason = backoff_.ReasonOf(group.name);
        reason != nullptr && backoff_.BackedOff(group.name, it.now)) {
      status.backoff = *reason;
    }
    status.candidates = candidates[group.name];
    input.cluster.unregistered += counts.unregistered;
    input.cluster.long_unregistered += counts.long_unregistered;
    input.groups.push_back(std::move(status));
  }
  return input;
}

void NodeScaleLoop::WriteStatus(const Iteration& it, const Status& health,
                                bool cluster_read) {
  StatusReport report;
  report.time = it.now;
  report.health = health.ok() ? "Healthy" : "Unhealthy: " + health.message();
  report.last_scale_up = last_scale_up_;
  report.last_scale_down = last_scale_down_;
  report.disruption_commands = commands_.Lines();
  report.buffers = BufferLines(it);
  report.provisioning_requests = it.provisioning_requests;
  for (const BlockedCandidate& blocked : blocked_) {
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
                       provision_.Upcoming(group.name),
                       backoff_.BackedOff(group.name, it.now)
                           ? backoff_.Until(group.name)
                           : TimePoint()};
    report.groups.push_back(status);
  }
  if (cluster_read) {
    report.ca = CaStatusInputOf(it, health.ok());
  }
  reporter_->Report(report, may_act_());
}

}  // namespace propscaler::nodescale
