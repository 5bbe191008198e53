#include "nodescale/run/action_executor.h"

#include <glog/logging.h>

#include <map>
#include <set>
#include <string_view>

#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {
namespace {

ActionOutcome NotRun(Status why) { return {false, std::move(why)}; }

ActionOutcome Ran(Status status) { return {true, std::move(status)}; }

Status GroupGone(const std::string& group) {
  return Status::NotFound("node group " + group + " is gone");
}

// A conflict is another writer's change, read again next time: not a
// failure worth a warning.
void LogFailure(const std::string& what, const Status& status) {
  if (status.ok()) return;
  if (status.code() == StatusCode::kConflict) {
    LOG(INFO) << what << " not written: " << status.message();
  } else {
    LOG(WARNING) << what << " failed: " << status.message();
  }
}

// The view's nodes of these names, by name (null for one not there).
std::map<std::string_view, const NodeState*> NodesByName(
    const std::vector<std::string>& names, const ClusterView& view) {
  std::map<std::string_view, const NodeState*> by_name;
  for (const std::string& name : names) by_name[name] = nullptr;
  for (const LiveNode& node : *view.nodes) {
    auto found = by_name.find(node.state.name);
    if (found != by_name.end()) found->second = &node.state;
  }
  return by_name;
}

// The view's nodes of these names, in the order given; missing ones left
// out.
std::vector<const NodeState*> NodesNamed(const std::vector<std::string>& names,
                                         const ClusterView& view) {
  const std::map<std::string_view, const NodeState*> by_name =
      NodesByName(names, view);
  std::vector<const NodeState*> nodes;
  for (const std::string& name : names) {
    if (const NodeState* node = by_name.at(name)) nodes.push_back(node);
  }
  return nodes;
}

}  // namespace

ActionExecutor::ActionExecutor(ExecutorClients api, Provider* provider,
                               std::function<SharedPods()> latest_pods,
                               const NodeScaleReporter* reporter,
                               const Clock* clock,
                               std::function<bool()> may_act,
                               Duration max_graceful_termination)
    : api_(api),
      provider_(provider),
      latest_pods_(std::move(latest_pods)),
      clock_(clock),
      may_act_(std::move(may_act)),
      drain_(api.nodes, provider, reporter, clock, may_act_,
             max_graceful_termination) {}

std::vector<ActionOutcome> ActionExecutor::Run(
    const std::vector<NodeScaleAction>& actions, const ClusterView& view,
    OnFailure on_failure) {
  std::vector<ActionOutcome> outcomes;
  outcomes.reserve(actions.size());
  bool failed = false;
  for (const NodeScaleAction& action : actions) {
    if (failed) {
      outcomes.push_back(
          NotRun(Status::Unavailable("an earlier action of its list failed")));
      continue;
    }
    outcomes.push_back(Run(action, view));
    failed = on_failure == OnFailure::kStop && !outcomes.back().ok();
  }
  return outcomes;
}

ActionOutcome ActionExecutor::Run(const NodeScaleAction& action,
                                  const ClusterView& view) {
  if (!may_act_()) {
    return NotRun(Status::Unavailable("this process may not act (no lease)"));
  }
  return std::visit([&](const auto& a) { return Do(a, view); }, action);
}

RemovalProgress ActionExecutor::AdvanceDrain(const ClusterView& view) {
  drain_.ClearStaleTaints(view);
  return drain_.Advance(view);
}

ActionOutcome ActionExecutor::Do(const IncreaseSize& action,
                                 const ClusterView& view) {
  const NodeGroup* group = FindGroup(*view.groups, action.group);
  if (group == nullptr) return NotRun(GroupGone(action.group));
  Status status = provider_->IncreaseSize(*group, action.delta);
  LogFailure("scale-up of " + group->name, status);
  return Ran(std::move(status));
}

ActionOutcome ActionExecutor::Do(const DeleteNodes& action,
                                 const ClusterView& view) {
  const NodeGroup* group = FindGroup(*view.groups, action.group);
  if (group == nullptr) return NotRun(GroupGone(action.group));
  Status status =
      provider_->DeleteNodes(*group, NodesNamed(action.nodes, view));
  LogFailure("deleting nodes of " + group->name, status);
  return Ran(std::move(status));
}

ActionOutcome ActionExecutor::Do(const DecreaseTarget& action,
                                 const ClusterView& view) {
  const NodeGroup* group = FindGroup(*view.groups, action.group);
  if (group == nullptr) return NotRun(GroupGone(action.group));
  std::vector<const NodeState*> registered;
  for (const LiveNode& node : *view.nodes) {
    if ((*view.group_of)(node.state) == group->name) {
      registered.push_back(&node.state);
    }
  }
  Status status =
      provider_->DecreaseTargetSize(*group, action.delta, registered);
  LogFailure("lowering the target of " + group->name, status);
  return Ran(std::move(status));
}

ActionOutcome ActionExecutor::Do(const SetSoftTaints& action,
                                 const ClusterView& view) {
  std::vector<std::string> names;
  for (const SetSoftTaints::Change& change : action.changes) {
    names.push_back(change.node);
  }
  const std::map<std::string_view, const NodeState*> nodes =
      NodesByName(names, view);
  ActionOutcome outcome = Ran(Status::Ok());
  const TimePoint start = clock_->Now();
  for (const SetSoftTaints::Change& change : action.changes) {
    if (!action.budget.Allows(outcome.changed, clock_->Now() - start)) {
      VLOG(1) << "scale-down: soft taints left for the next pass after "
              << outcome.changed;
      break;
    }
    const NodeState* node = nodes.at(change.node);
    if (node == nullptr) continue;
    ++outcome.changed;
    Status status =
        SetDeletionCandidate(*api_.nodes, *node, change.taint, view.now);
    if (!status.ok()) {
      LOG(WARNING) << status.message();
    } else if (change.taint) {
      LOG(INFO) << "scale-down: node " << change.node << " is unneeded";
    }
  }
  return outcome;
}

ActionOutcome ActionExecutor::Do(const StartRemoval& action,
                                 const ClusterView& view) {
  const SharedPods pods = latest_pods_();
  ClusterView latest = view;
  latest.pods = &pods;
  ActionOutcome outcome = Ran(Status::Ok());
  outcome.removal = drain_.Start(action.targets, latest, action.all_or_nothing);
  return outcome;
}

ActionOutcome ActionExecutor::Do(const WriteRequestConditions& action,
                                 const ClusterView&) {
  Status status = api_.requests->PatchProvisioningRequestConditions(
      action.request, action.set);
  LogFailure("ProvisioningRequest " + action.request.Key() + "'s conditions",
             status);
  return Ran(std::move(status));
}

ActionOutcome ActionExecutor::Do(const DeleteRequest& action,
                                 const ClusterView&) {
  Status status = api_.requests->DeleteProvisioningRequest(action.request);
  if (status.code() == StatusCode::kNotFound) status = Status::Ok();
  LogFailure("deleting ProvisioningRequest " + action.request.Key(), status);
  return Ran(std::move(status));
}

ActionOutcome ActionExecutor::Do(const PatchBufferStatus& action,
                                 const ClusterView& view) {
  Status status = api_.buffers->PatchCapacityBufferStatus(
      action.buffer, action.status, view.now);
  LogFailure("CapacityBuffer " + action.buffer.Key() + "'s status", status);
  return Ran(std::move(status));
}

}  // namespace propscaler::nodescale
