#include "nodescale/run/loop.h"

#include <glog/logging.h>

#include <set>
#include <sstream>

#include "common/duration.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/expander/chain.h"
#include "nodescale/report/iteration_report.h"
#include "nodescale/run/decision_clock.h"

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
      priorities_(&options_, provider_, api_.config_maps) {}

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
  return Status::Ok();
}

std::vector<ObservedBuffer> NodeScaleLoop::ReadBuffers() const {
  std::vector<ObservedBuffer> buffers;
  for (kube::CapacityBuffer& buffer : state_->Buffers()) {
    if (!buffer.ActiveCapacity()) continue;
    Result<kube::BufferChunk> chunk =
        api_.cluster_state->GetBufferChunk(buffer);
    buffers.push_back({std::move(buffer), std::move(chunk)});
  }
  return buffers;
}

IterationInput NodeScaleLoop::InputOf(const LoopIteration& it,
                                      RemovalProgress drained,
                                      bool scale_up_only) {
  IterationInput in;
  in.now = it.now;
  in.nodes = it.nodes;
  in.pods = it.pods;
  in.pdbs = it.pdbs;
  in.groups = it.groups;
  in.group_of = it.group_of;
  in.volumes = state_->Volumes();
  in.requests = state_->ProvisioningRequests();
  in.templates = state_->PodTemplates();
  in.buffers = ReadBuffers();
  in.priorities = it.priorities;
  in.drained = std::move(drained);
  const RemovalQueue& drain = executor_.drain();
  in.in_flight = drain.InFlight();
  in.removing = drain.RemovingNodes();
  in.draining = drain.Draining();
  in.pools = provider_->Pools();
  in.node_pools = provider_->NodePools();
  in.may_act = executor_.MayAct();
  in.scale_up_only = scale_up_only;
  in.node_cache = &node_cache_;
  in.volume_cache = &volume_cache_;
  return in;
}

IterationOutcomes NodeScaleLoop::Execute(const IterationDecision& decision,
                                         const ClusterView& observed,
                                         const ClusterView& decided) {
  IterationOutcomes outcomes;
  for (size_t s = 0; s < decision.steps.size(); ++s) {
    const IterationStep& step = decision.steps[s];
    StepOutcome out;
    out.ran = StepRuns(decision, s, outcomes);
    if (out.ran) {
      // A give-up's nodes and target are the ones it found.
      const bool given_up = step.kind == IterationStep::Kind::kGiveUp;
      out.actions = executor_.Run(step.actions, given_up ? observed : decided,
                                  step.all_or_nothing
                                      ? ActionExecutor::OnFailure::kStop
                                      : ActionExecutor::OnFailure::kContinue);
    }
    outcomes.steps.push_back(std::move(out));
  }
  return outcomes;
}

bool NodeScaleLoop::Iterate(LoopIteration* it, RemovalProgress drained,
                            bool scale_up_only) {
  it->priorities = priorities_.Current();
  Result<std::unique_ptr<ExpanderChain>> chain =
      MakeExpanderChain(options_.expander, it->priorities, &rng_);
  LOG_IF(ERROR, !chain.ok()) << chain.status().message();
  IterationInput in = InputOf(*it, std::move(drained), scale_up_only);
  in.expander = chain.ok() ? chain->get() : nullptr;
  DecisionClock timer(clock_, reporter_);
  in.timer = &timer;
  IterationDecision decision;
  DecideIteration(in, options_, &memory_, &decision);
  it->nodes = decision.nodes;
  it->groups = decision.groups;
  it->readiness = decision.arrivals.readiness;
  it->buffers = decision.buffers.Lines();
  it->provisioning_requests = decision.requests.lines;
  for (const std::string& line : decision.atomic.lines) {
    it->provisioning_requests.push_back(line);
  }
  const ClusterView observed{in.now, &in.nodes, &in.pods, &in.groups,
                             &in.group_of};
  const IterationOutcomes outcomes = Execute(decision, observed, it->View());
  AbsorbOutcomes(decision, outcomes, it->now, &memory_);
  ReportIteration(*reporter_, {&decision, &outcomes, &memory_, &it->pods,
                               in.volumes.get(), it->unschedulable, it->now,
                               clock_->Now(), options_.provisioning_requests});
  const bool healthy = decision.unhealthy.empty();
  if (!scale_up_only || !healthy || ScaledUp(decision, outcomes)) {
    WriteStatus(*it, healthy ? Status::Ok()
                             : Status::Unavailable(
                                   "cluster is not ready for autoscaling: " +
                                   decision.unhealthy));
  }
  ReturnNodes(&decision.snapshot, &node_cache_);
  return healthy;
}

Status NodeScaleLoop::RunOnce() {
  LoopIteration it;
  if (Status read = ReadCluster(&it); !read.ok()) {
    reporter_->ProviderUnreadable(provider_->NodePools() != nullptr);
    WriteStatus(it, read, /*cluster_read=*/false);
    return read;
  }
  RemovalProgress drained = executor_.AdvanceDrain(it.View());
  if (Iterate(&it, std::move(drained), /*scale_up_only=*/false)) {
    ObserveDuration(it, "full");
  }
  return Status::Ok();
}

Status NodeScaleLoop::RunScaleUp() {
  LoopIteration it;
  if (Status read = ReadCluster(&it); !read.ok()) {
    WriteStatus(it, read, /*cluster_read=*/false);
    return read;
  }
  if (Iterate(&it, {}, /*scale_up_only=*/true)) {
    ObserveDuration(it, "scale-up");
  }
  return Status::Ok();
}

void NodeScaleLoop::ObserveDuration(const LoopIteration& it, const char* kind) {
  reporter_->LoopDuration(kind, clock_->Now() - it.now);
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
  report.disruption_commands = memory_.disruption.lines;
  report.buffers = it.buffers;
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
