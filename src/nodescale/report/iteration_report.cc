#include "nodescale/report/iteration_report.h"

#include <glog/logging.h>

#include <map>
#include <optional>
#include <string>

#include "common/utc_time.h"
#include "nodescale/plan/simulation/volume_needs.h"

namespace propscaler::nodescale {
namespace {

using Kind = IterationStep::Kind;
using PodsByKey = std::map<std::string, const LivePod*>;

class Report {
 public:
  Report(const NodeScaleReporter& reporter, const IterationReportInput& in)
      : r_(reporter), in_(in), d_(*in.decision) {}

  void Tell() {
    GivenUp();
    Requests();
    Volumes();
    if (!Health()) return;
    for (const std::string& done : d_.atomic.done) {
      LOG(INFO) << "ProvisioningRequest " << done;
    }
    r_.UnschedulablePods(in_.unschedulable);
    for (size_t s = 0; s < d_.steps.size(); ++s) {
      const StepOutcome& out = in_.outcomes->steps[s];
      if (!out.ran) continue;
      switch (d_.steps[s].kind) {
        case Kind::kAtomicGiveBack:
          GivenBack(d_.atomic.give_backs[d_.steps[s].index]);
          break;
        case Kind::kAtomicScaleUp:
          AtomicScaleUp(out.actions);
          break;
        case Kind::kScaleUp:
          ScaleUp(out.actions);
          break;
        case Kind::kScaleDown:
          if (d_.scale_down->choice.removals.empty()) {
            VLOG(1) << "scale-down: " << d_.scale_down->choice.waiting;
          }
          break;
        case Kind::kDisruption:
          Disruption(out.actions);
          break;
        default:
          break;
      }
    }
    const bool atomic = d_.atomic_scale_up &&
                        !d_.atomic_scale_up->outcome.plan.increases.empty();
    const ScaleUpPlan& plan = d_.scale_up;
    if (!atomic && (!plan.increases.empty() || !plan.unschedulable.empty())) {
      r_.ScaleUpEvents(plan, d_.groups, Pending());
    }
  }

 private:
  // The pending pods by key, listed once the report needs them (at rest,
  // never: 150,000 pods are not walked for nothing).
  const PodsByKey& Pending() {
    if (!pending_) {
      pending_.emplace();
      for (const LivePod& pod : *in_.pods) {
        if (IsPending(pod.state)) (*pending_)[pod.state.Key()] = &pod;
      }
    }
    return *pending_;
  }

  const PodsByKey& All() {
    if (!all_) {
      all_.emplace();
      for (const LivePod& pod : *in_.pods) (*all_)[pod.state.Key()] = &pod;
    }
    return *all_;
  }

  const StepOutcome* StepOf(Kind kind, size_t index = 0) const {
    for (size_t s = 0; s < d_.steps.size(); ++s) {
      if (d_.steps[s].kind == kind && d_.steps[s].index == index &&
          in_.outcomes->steps[s].ran) {
        return &in_.outcomes->steps[s];
      }
    }
    return nullptr;
  }

  void GivenUp() {
    for (size_t i = 0; i < d_.arrivals.given_up.size(); ++i) {
      const CapacityGivenUp& given = d_.arrivals.given_up[i];
      LOG(WARNING) << "node group " << given.group
                   << ": nodes not Ready within "
                   << "--max-node-provision-time; backed off until "
                   << FormatMicroTime(given.backed_off_until);
      const StepOutcome* out = StepOf(Kind::kGiveUp, i);
      if (out == nullptr) continue;
      r_.ScaleUpTimedOut(given.group, given.within);
      if (out->actions.size() > 1 && out->actions[1].ran) {
        r_.UnregisteredRemoved(given.group, given.target_decrease,
                               out->actions[1].status);
      }
    }
  }

  void Provisioned(const RequestWrite& write, const ActionOutcome& outcome) {
    if (outcome.ok() && write.then == RequestWrite::Then::kProvisioned) {
      r_.Provisioned(in_.now - write.request.created);
    }
  }

  void Requests() {
    if (!in_.provisioning_requests) return;
    for (const auto& [key, request] : d_.requests.tell) {
      auto pod = Pending().find(key);
      if (pod == Pending().end()) continue;
      r_.PodEvent(*pod->second, /*warning=*/false, "NotTriggerScaleUp",
                  "Unschedulable pod didn't trigger scale-up, because it's "
                  "consuming ProvisioningRequest " +
                      request);
    }
    for (const std::string& line : d_.requests.log) LOG(INFO) << line;
    if (const StepOutcome* out = StepOf(Kind::kRequests)) {
      for (const RequestWrite& write : d_.requests.writes) {
        Provisioned(write, out->actions[write.action]);
      }
    }
    if (d_.requests.listed) {
      r_.ProvisioningRequests(in_.memory->requests.counts_seen);
    }
  }

  void Volumes() {
    r_.Claims(d_.claims);
    if (!in_.volumes->unreadable.empty()) {
      r_.HeldForVolumes(*in_.pods, UnreadableVolumesReason(*in_.volumes));
    }
  }

  bool Health() {
    r_.Readiness(d_.readiness);
    if (d_.unhealthy.empty()) {
      LOG_IF(INFO, !d_.health_was.empty())
          << "cluster is healthy again: autoscaling resumes";
      return true;
    }
    LOG_IF(WARNING, d_.unhealthy != d_.health_was)
        << "Cluster is not ready for autoscaling: " << d_.unhealthy
        << "; nothing is scaled up or down until fewer nodes are Unready";
    r_.ClusterUnhealthy(d_.unhealthy);
    return false;
  }

  void GivenBack(const AtomicGiveBack& give_back) {
    LOG(WARNING) << "ProvisioningRequest " << give_back.request << ": "
                 << give_back.reason;
    if (give_back.listed) {
      r_.RequestEvent(*give_back.listed, /*warning=*/true, "NodesGivenBack",
                      give_back.reason);
    }
  }

  void Increase(const GroupIncrease& increase, const Status& status) {
    const NodeGroup* group = FindGroup(d_.groups, increase.group);
    if (group == nullptr) return;
    switch (IncreaseResultOf(status)) {
      case IncreaseResult::kConflict:
        break;
      case IncreaseResult::kRefused:
        r_.ScaleUpFailed(*group);
        break;
      case IncreaseResult::kAsked:
        r_.ScaleUpRequested(*group, increase.delta);
        break;
    }
  }

  void AtomicScaleUp(const std::vector<ActionOutcome>& out) {
    const AtomicScaleUpDecision& atomic = *d_.atomic_scale_up;
    const kube::ProvisioningRequest& request = atomic.request;
    if (atomic.outcome.plan.increases.empty()) {
      LOG(INFO) << "ProvisioningRequest " << request.Key() << " ("
                << request.PodCount()
                << " pods, all or nothing): " << atomic.outcome.summary;
      if (atomic.write) Provisioned(*atomic.write, out[0]);
      return;
    }
    bool refused = false;
    for (size_t i = 0; i < atomic.parts.size() && out[i].ran; ++i) {
      const GroupIncrease& increase =
          atomic.outcome.plan.increases[atomic.part_increase[i]];
      const NodeGroup* group = FindGroup(d_.groups, increase.group);
      LOG(INFO) << "scale-up (all or nothing, ProvisioningRequest "
                << request.Key() << "): " << DescribeIncrease(increase, *group)
                << " for " << increase.pods.size() << " pods";
      Increase(increase, out[i].status);
      refused |= !out[i].ok();
    }
    if (!refused && atomic.write) {
      Provisioned(*atomic.write, out[atomic.write->action]);
    }
  }

  void ScaleUp(const std::vector<ActionOutcome>& out) {
    for (size_t i = 0; i < d_.scale_up.increases.size(); ++i) {
      const GroupIncrease& increase = d_.scale_up.increases[i];
      const NodeGroup* group = FindGroup(d_.groups, increase.group);
      if (!out[i].ran || group == nullptr) continue;
      LOG(INFO) << "scale-up: " << DescribeIncrease(increase, *group) << " for "
                << increase.pods.size() << " pods";
      for (const std::string& key : increase.pods) {
        auto found = Pending().find(key);
        if (found == Pending().end() ||
            found->second->unschedulable_since == TimePoint{})
          continue;
        r_.PodWaited(in_.written_at - found->second->unschedulable_since);
      }
      Increase(increase, out[i].status);
    }
  }

  // The disruption plan's allowances, and its blocked candidates' Events
  // on their nodes and pods.
  void DisruptionPlanned(const DisruptionPlan& plan) {
    r_.DisruptionAllowances(plan);
    for (const BlockedCandidate& blocked : plan.blocked) {
      if (FindNode(d_.nodes, blocked.node) != nullptr) {
        r_.NodeEvent(blocked.node, false, "DisruptionBlocked", blocked.reason);
      }
      if (blocked.pod.empty()) continue;
      auto found = All().find(blocked.pod);
      if (found != All().end()) {
        r_.PodEvent(
            *found->second, false, "DisruptionBlocked",
            "node " + blocked.node + " is not disrupted: " + blocked.reason);
      }
    }
  }

  void CommandEvents(const DisruptionCommand& command, bool warning,
                     const std::string& reason, const std::string& message) {
    for (const std::string& name : command.nodes) {
      if (FindNode(d_.nodes, name) != nullptr) {
        r_.NodeEvent(name, warning, reason, message);
      }
    }
  }

  void Launched(const DisruptionCommand& command, const ActionOutcome& out) {
    const NewNodes& replacement = *command.replacement;
    if (out.ok()) {
      CommandEvents(
          command, false, "DisruptionLaunching",
          "launching " + std::to_string(replacement.count) +
              " node(s) of group " + replacement.group + " to replace it (" +
              std::string(DisruptionMethodName(command.method)) + ")");
    } else if (out.ran) {
      r_.DisruptionFailed(command);
      LOG(WARNING) << "disruption: launching the replacement failed: "
                   << out.status.message();
    }
  }

  void Disruption(const std::vector<ActionOutcome>& out) {
    const CommandPass& pass = d_.command;
    const DisruptionCommand& command = pass.command;
    if (pass.plan_reported) DisruptionPlanned(*d_.disruption);
    if (pass.started) {
      LOG(INFO) << "disruption: starting " << DescribeCommand(command)
                << " (saves " << command.savings_per_hour << "/h)";
      r_.DisruptionStarted(command);
    }
    switch (pass.kind) {
      case CommandPass::Kind::kValidating:
        LOG(INFO) << "disruption: " << DescribeCommand(command)
                  << " proposed; checked again at " << pass.validate_due;
        break;
      case CommandPass::Kind::kRejected:
        LOG(INFO) << "disruption: " << DescribeCommand(command)
                  << " rejected: " << pass.rejected;
        r_.ValidationFailed(command.method);
        CommandEvents(command, false, "ConsolidationRejected", pass.rejected);
        break;
      case CommandPass::Kind::kLaunch:
        Launched(command, out[0]);
        break;
      case CommandPass::Kind::kReplacementLate:
        r_.DisruptionFailed(command);
        LOG(WARNING) << "disruption: " << DescribeCommand(command)
                     << " failed: the replacement was not Ready within "
                        "--max-node-provision-time; the old nodes stay";
        CommandEvents(command, true, "DisruptionFailed",
                      "its replacement in group " + command.replacement->group +
                          " did not become Ready; the node stays");
        break;
      default:
        break;
    }
  }

  const NodeScaleReporter& r_;
  const IterationReportInput& in_;
  const IterationDecision& d_;
  std::optional<PodsByKey> pending_;
  std::optional<PodsByKey> all_;
};

}  // namespace

void ReportIteration(const NodeScaleReporter& reporter,
                     const IterationReportInput& input) {
  Report(reporter, input).Tell();
}

}  // namespace propscaler::nodescale
