#include "nodescale/plan/iteration.h"

#include <utility>

#include "common/utc_time.h"
#include "nodescale/plan/disruption_life.h"
#include "nodescale/plan/health/node_health.h"
#include "nodescale/plan/simulation/node_templates.h"

namespace propscaler::nodescale {
namespace {

using Kind = IterationStep::Kind;

void AddStep(IterationDecision* d, Kind kind,
             std::vector<NodeScaleAction> actions, bool all_or_nothing = false,
             bool unless_scaled_up = false, size_t index = 0) {
  if (actions.empty() && kind != Kind::kScaleDown &&
      kind != Kind::kDisruption) {
    return;
  }
  d->steps.push_back(
      {kind, std::move(actions), all_or_nothing, unless_scaled_up, index});
}

// The capacity of groups whose nodes did not come in time given up (when
// this process may act): their actions, their targets lowered, their
// never-started nodes out of the iteration.
void GiveUp(const IterationInput& in, IterationDecision* d) {
  d->nodes = in.nodes;
  if (!in.may_act) return;
  for (size_t i = 0; i < d->arrivals.given_up.size(); ++i) {
    const CapacityGivenUp& given = d->arrivals.given_up[i];
    AddStep(d, Kind::kGiveUp, given.actions, /*all_or_nothing=*/true, false, i);
    for (NodeGroup& group : d->groups) {
      if (group.name == given.group) group.target_size = given.new_target;
    }
  }
  if (!d->arrivals.removed.empty()) {
    d->nodes.EraseIf([d](const LiveNode& node) {
      return d->arrivals.removed.contains(node.state.name);
    });
  }
}

// The snapshot with the requests' and the buffers' pods, volumes resolved.
void BuildSnapshot(const IterationInput& in, const NodeScaleSettings& settings,
                   LoopMemory* memory, IterationDecision* d) {
  d->snapshot = BuildLiveSnapshot(d->nodes, in.pods, in.group_of,
                                  d->arrivals.readiness, in.now,
                                  {settings.new_pod_scale_up_delay,
                                   settings.expendable_pods_priority_cutoff},
                                  in.node_cache);
  // Until they are listed, scale-down plans without PodDisruptionBudgets
  // (the eviction still enforces them) and disruption waits.
  if (in.pdbs) d->snapshot.pdbs = *in.pdbs;
  if (settings.provisioning_requests) {
    d->requests = PlanRequests(
        {&in.requests, &in.templates, &d->groups, in.may_act, in.now, in.timer},
        settings, &d->snapshot, memory);
    AddStep(d, Kind::kRequests, d->requests.actions);
  }
  d->buffers = PlanBuffers(in.buffers, d->groups, &d->snapshot);
  // After the buffers: their pods' claims are placed as a real pod's.
  d->claims = ResolveSnapshotVolumes(in.volumes, &d->snapshot, in.volume_cache);
  for (auto& [group, model] :
       TemplatesOfLiveNodes(d->snapshot, settings.scale_up.taints)) {
    memory->scale_up.remembered_templates[group] = std::move(model);
  }
}

// Cluster Autoscaler's "Cluster is not ready for autoscaling": while too
// many nodes are Unready the unneeded nodes start over.
bool Healthy(const NodeScaleSettings& settings, LoopMemory* memory,
             IterationDecision* d, TimePoint now) {
  d->readiness = CountReadiness(d->arrivals.readiness);
  const ClusterHealth health =
      AssessClusterHealth(d->readiness, settings.node_health);
  d->health_was = memory->last_unhealthy;
  if (health.healthy) {
    memory->last_unhealthy.clear();
    return true;
  }
  d->unhealthy = health.reason;
  memory->last_unhealthy = health.reason;
  memory->timers.SetUnneeded({}, now);
  return false;
}

void AdvanceAtomic(const IterationInput& in, const NodeScaleSettings& settings,
                   LoopMemory* memory, IterationDecision* d) {
  if (memory->requests.atomic_scale_ups.empty()) return;
  d->atomic = AdvanceAtomicScaleUps(
      std::move(memory->requests.atomic_scale_ups),
      {&d->nodes, &in.group_of, &d->arrivals.readiness, &d->groups,
       &in.requests, settings.max_node_provision_time, in.now});
  memory->requests.atomic_scale_ups = std::move(d->atomic.in_flight);
  d->atomic.in_flight.clear();
  if (!in.may_act) return;
  for (size_t i = 0; i < d->atomic.give_backs.size(); ++i) {
    const AtomicGiveBack& give_back = d->atomic.give_backs[i];
    std::vector<NodeScaleAction> actions = give_back.decreases;
    if (!give_back.came.empty()) {
      actions.push_back(StartRemoval{give_back.came, false});
    }
    if (give_back.listed) {
      actions.push_back(
          WriteRequestConditions{*give_back.listed, give_back.conditions});
    }
    AddStep(d, Kind::kAtomicGiveBack, std::move(actions), false, false, i);
  }
}

// What removes nodes this iteration, and disruption's input where a
// command may be checked or planned.
void PrepareRemoval(const IterationInput& in, const NodeScaleSettings& settings,
                    LoopMemory* memory, IterationDecision* d) {
  if (in.scale_up_only) return;
  d->removal = RemovalPathOf(settings.scale_down_enabled, settings.disruption,
                             !in.pools.empty());
  if (d->removal != RemovalPath::kDisruption) return;
  NotePodEvents(d->nodes, in.pods, in.now, &memory->disruption);
  if (in.draining || !in.pdbs) return;
  std::set<std::string> removing = in.removing;
  if (const std::optional<InFlightCommand>& command =
          memory->disruption.command;
      command && command->stage == InFlightCommand::Stage::kReplacing) {
    removing.insert(command->command.nodes.begin(),
                    command->command.nodes.end());
  }
  d->disruption_input = DisruptionInputOf(
      {&d->snapshot, &d->nodes, &in.group_of, &d->groups, in.pools,
       &in.priorities, std::move(removing), settings.scale_up.taints,
       settings.scale_up.csi_node_aware_scheduling, in.now},
      memory->disruption, memory->backoff);
}

// One atomic request's scale-up, when one is due: whether it asked for
// nodes (the iteration's other scale-up then waits for the next, as
// Cluster Autoscaler alternates them).
bool PlanAtomicScaleUp(const IterationInput& in,
                       const NodeScaleSettings& settings, LoopMemory* memory,
                       IterationDecision* d) {
  if (!d->requests.atomic || in.expander == nullptr || !in.may_act) {
    return false;
  }
  d->atomic_scale_up = AtomicScaleUpOf(
      std::move(*d->requests.atomic), d->groups, d->nodes, in.group_of, *memory,
      settings, in.expander, in.now, &d->snapshot);
  d->requests.atomic.reset();
  const bool scales = !d->atomic_scale_up->outcome.plan.increases.empty();
  AddStep(d, Kind::kAtomicScaleUp, d->atomic_scale_up->actions,
          /*all_or_nothing=*/true);
  if (scales) memory->timers.ScaledUp(in.now);
  return scales;
}

void DecideScaleUpAndRemoval(const IterationInput& in,
                             const NodeScaleSettings& settings,
                             const LoopMemory& memory, IterationDecision* d) {
  DecideInput input;
  input.timer = in.timer;
  input.snapshot = &d->snapshot;
  input.groups = &d->groups;
  input.settings = &settings;
  input.memory = &memory;
  input.expander = in.expander;
  input.node_pools = in.node_pools;
  input.now = in.now;
  input.removal = d->removal;
  input.in_flight = in.in_flight;
  if (d->disruption_input && !memory.disruption.command) {
    input.disruption = &*d->disruption_input;
  }
  Decisions decisions = Decide(input);
  d->scale_up = std::move(decisions.scale_up);
  d->scale_down = std::move(decisions.scale_down);
  d->disruption = std::move(decisions.disruption);
  AddStep(d, Kind::kScaleUp, ScaleUpActions(d->scale_up));
}

// Karpenter's disruption command's pass, after the steps that may hand
// the drain nodes: while it holds some, nothing new is disrupted.
void PlanCommand(const IterationInput& in, const NodeScaleSettings& settings,
                 const LoopMemory& memory, IterationDecision* d) {
  bool draining = in.draining;
  for (const IterationStep& step : d->steps) {
    if (step.kind == Kind::kAtomicGiveBack &&
        !d->atomic.give_backs[step.index].came.empty()) {
      draining = true;
    }
  }
  d->command =
      PlanCommandStep({&memory.disruption.command, &d->disruption,
                       d->disruption_input ? &*d->disruption_input : nullptr,
                       draining, in.pdbs.has_value(), in.may_act, &d->nodes,
                       &in.group_of, &d->groups, in.now},
                      settings);
  AddStep(d, Kind::kDisruption, d->command.actions, false,
          /*unless_scaled_up=*/true);
}

// The memory told what an IncreaseSize of `group` came to: the capacity
// asked for followed and /status's last scale-up, or the group backed off.
// Whether it was asked for.
bool NoteIncrease(const std::string& group, const std::string& described,
                  const Status& status, TimePoint now, LoopMemory* memory) {
  switch (IncreaseResultOf(status)) {
    case IncreaseResult::kConflict:
      return false;
    case IncreaseResult::kRefused:
      memory->backoff.Fail(group, now,
                           {"cloudProviderError", status.message()});
      return false;
    case IncreaseResult::kAsked:
      break;
  }
  memory->provision.ScaledUp(group, now);
  memory->last_scale_up = described + " at " + FormatMicroTime(now);
  return true;
}

std::string Described(const GroupIncrease& increase,
                      const std::vector<NodeGroup>& groups) {
  const NodeGroup* group = FindGroup(groups, increase.group);
  return group == nullptr ? increase.group : DescribeIncrease(increase, *group);
}

// A request written: not acted on again until the watch brings the
// write; then what its success means.
void NoteWrite(const RequestWrite& write, const ActionOutcome& outcome,
               LoopMemory* memory) {
  if (!outcome.ok()) return;
  memory->requests.acted[write.request.uid] = write.request.resource_version;
  switch (write.then) {
    case RequestWrite::Then::kNothing:
      break;
    case RequestWrite::Then::kProvisioned:
      memory->requests.backoff.Forget(write.request.uid);
      break;
    case RequestWrite::Then::kBackOff:
      memory->requests.backoff.Failed(write.request.uid);
      break;
  }
}

void AbsorbAtomicScaleUp(const AtomicScaleUpDecision& atomic,
                         const std::vector<NodeGroup>& groups,
                         const std::vector<ActionOutcome>& outcomes,
                         TimePoint now, LoopMemory* memory) {
  const kube::ProvisioningRequest& request = atomic.request;
  if (atomic.outcome.plan.increases.empty()) {
    if (atomic.write) NoteWrite(*atomic.write, outcomes[0], memory);
    return;
  }
  AtomicScaleUp scale_up{request.uid, request.Key(), {}, now, ""};
  for (size_t i = 0; i < atomic.parts.size() && outcomes[i].ran; ++i) {
    const AtomicScaleUp::Part& part = atomic.parts[i];
    scale_up.parts.push_back(part);
    const Status& status = outcomes[i].status;
    const std::string described = Described(
        atomic.outcome.plan.increases[atomic.part_increase[i]], groups);
    if (!NoteIncrease(part.group, described, status, now, memory)) {
      scale_up.refused = "node group " + part.group + ": " + status.message();
      break;
    }
  }
  if (scale_up.refused.empty() && atomic.write) {
    NoteWrite(*atomic.write, outcomes[atomic.write->action], memory);
  }
  memory->requests.atomic_scale_ups.push_back(std::move(scale_up));
}

}  // namespace

void DecideIteration(const IterationInput& in,
                     const NodeScaleSettings& settings, LoopMemory* memory,
                     IterationDecision* decision) {
  *decision = IterationDecision();
  IterationDecision& d = *decision;
  d.groups = in.groups;
  d.arrivals = PlanArrivals({&in.nodes, &in.groups, &in.group_of,
                             in.volumes.get(), in.may_act, in.now},
                            settings, memory);
  GiveUp(in, &d);
  BuildSnapshot(in, settings, memory, &d);
  if (!in.scale_up_only) memory->NoteRemovals(in.drained, in.now);
  if (!Healthy(settings, memory, &d, in.now)) return;
  if (!in.scale_up_only) AdvanceAtomic(in, settings, memory, &d);
  memory->NoteGroupsForScaleUp(d.nodes, in.group_of, d.arrivals.readiness,
                               d.groups, settings.node_health, in.now);
  const bool atomic = PlanAtomicScaleUp(in, settings, memory, &d);
  PrepareRemoval(in, settings, memory, &d);
  if (!atomic) DecideScaleUpAndRemoval(in, settings, *memory, &d);
  d.buffers.NoteUnfit(d.scale_up);
  AddStep(&d, Kind::kBufferStatus, d.buffers.StatusPatches());
  if (d.scale_down) {
    AddStep(&d, Kind::kScaleDown,
            ScaleDownActions(*d.scale_down, d.nodes, settings.soft_taints),
            false, /*unless_scaled_up=*/true);
  }
  if (d.removal == RemovalPath::kDisruption)
    PlanCommand(in, settings, *memory, &d);
}

bool ScaledUp(const IterationDecision& decision,
              const IterationOutcomes& outcomes) {
  if (decision.atomic_scale_up &&
      !decision.atomic_scale_up->outcome.plan.increases.empty()) {
    return true;
  }
  for (size_t s = 0; s < decision.steps.size() && s < outcomes.steps.size();
       ++s) {
    if (decision.steps[s].kind != Kind::kScaleUp) continue;
    for (const ActionOutcome& outcome : outcomes.steps[s].actions) {
      if (outcome.ok()) return true;
    }
  }
  return false;
}

bool StepRuns(const IterationDecision& decision, size_t step,
              const IterationOutcomes& outcomes) {
  return !decision.steps[step].unless_scaled_up ||
         !ScaledUp(decision, outcomes);
}

void AbsorbOutcomes(const IterationDecision& d,
                    const IterationOutcomes& outcomes, TimePoint now,
                    LoopMemory* memory) {
  bool scaled = false;
  for (size_t s = 0; s < d.steps.size() && s < outcomes.steps.size(); ++s) {
    const IterationStep& step = d.steps[s];
    if (!outcomes.steps[s].ran) continue;
    const std::vector<ActionOutcome>& out = outcomes.steps[s].actions;
    switch (step.kind) {
      case Kind::kGiveUp:
      case Kind::kBufferStatus:
        break;
      case Kind::kDisruption:
        AbsorbCommandStep(d.command, out, now, memory);
        break;
      case Kind::kRequests:
        for (const RequestWrite& write : d.requests.writes) {
          NoteWrite(write, out[write.action], memory);
        }
        break;
      case Kind::kAtomicGiveBack: {
        const AtomicGiveBack& give_back = d.atomic.give_backs[step.index];
        size_t next = give_back.decreases.size();
        if (!give_back.came.empty())
          memory->NoteRemovals(out[next++].removal, now);
        if (give_back.listed && out[next].ok()) {
          memory->requests.acted[give_back.listed->uid] =
              give_back.listed->resource_version;
          if (give_back.conditions.front().type == kube::kProvisioned) {
            memory->requests.backoff.Failed(give_back.listed->uid);
          }
        }
        break;
      }
      case Kind::kAtomicScaleUp:
        AbsorbAtomicScaleUp(*d.atomic_scale_up, d.groups, out, now, memory);
        break;
      case Kind::kScaleUp:
        for (size_t i = 0; i < d.scale_up.increases.size(); ++i) {
          const GroupIncrease& increase = d.scale_up.increases[i];
          if (!out[i].ran || FindGroup(d.groups, increase.group) == nullptr) {
            continue;
          }
          scaled |= NoteIncrease(increase.group, Described(increase, d.groups),
                                 out[i].status, now, memory);
        }
        if (scaled) memory->timers.ScaledUp(now);
        break;
      case Kind::kScaleDown:
        memory->timers = d.scale_down->timers;
        memory->last_scale_down_pass = now;
        for (const ActionOutcome& outcome : out) {
          memory->NoteRemovals(outcome.removal, now);
        }
        break;
    }
  }
}

}  // namespace propscaler::nodescale
