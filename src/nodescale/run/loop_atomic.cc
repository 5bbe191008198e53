// best-effort-atomic-scale-up ProvisioningRequests in the node-scale loop:
// the due request's pods planned all or nothing (plan/scale_up/scale_up.h) and
// the plan asked of the provider at once; then each such scale-up followed
// until its nodes are Ready, or given back when they do not all come:
// kwok and Cluster API have no atomic resize, so a half-filled scale-up is
// undone here instead (Cluster Autoscaler leaves it).
#include <glog/logging.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/utc_time.h"
#include "nodescale/plan/provisioning_requests/atomic_scale_up.h"
#include "nodescale/plan/provisioning_requests/provreq_atomic.h"
#include "nodescale/plan/provisioning_requests/provreq_capacity.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_iteration.h"

namespace propscaler::nodescale {
namespace {

bool IsRequestPod(const PodState& pod,
                  const kube::ProvisioningRequest& request) {
  return *pod.owner_kind == kProvisioningRequestKind &&
         *pod.owner_name == request.name &&
         pod.namespace_ == request.namespace_;
}

}  // namespace

bool NodeScaleLoop::ScaleUpAtomically(ExpanderChain* expander, Iteration* it) {
  if (!it->atomic || expander == nullptr || !executor_.MayAct()) return false;
  const kube::ProvisioningRequest& request = it->atomic->request;
  std::vector<PodState>& pods = it->atomic->pods;
  for (const PodState& pod : pods) it->snapshot.pods.push_back(pod);
  const AtomicOutcome outcome =
      PlanAtomicRequest(request, pods, it->snapshot, it->groups, memory_,
                        options_.scale_up, expander, it->now);
  it->snapshot.pods.EraseIf(
      [&request](const PodState& pod) { return IsRequestPod(pod, request); });
  const ScaleUpPlan& plan = outcome.plan;
  if (plan.increases.empty()) {
    LOG(INFO) << "ProvisioningRequest " << request.Key() << " ("
              << request.PodCount()
              << " pods, all or nothing): " << outcome.summary;
    if (!WriteConditions(request, outcome.conditions, *it)) return false;
    if (!outcome.fits) {
      provreq_backoff_.Failed(request.uid);
      return false;
    }
    provreq_backoff_.Forget(request.uid);
    reporter_->Provisioned(it->now - request.created);
    it->snapshot.pods = BookedFirst(std::move(pods), it->snapshot.pods);
    return false;
  }
  AtomicScaleUp scale_up{request.uid, request.Key(), {}, it->now, ""};
  std::vector<const GroupIncrease*> increases;
  std::vector<NodeScaleAction> actions;
  for (const GroupIncrease& increase : plan.increases) {
    if (it->Group(increase.group) == nullptr) continue;
    increases.push_back(&increase);
    actions.push_back(IncreaseSize{increase.group, increase.delta});
  }
  const std::vector<ActionOutcome> outcomes = executor_.Run(
      actions, ClusterViewOf(*it, it->pods), ActionExecutor::OnFailure::kStop);
  for (size_t i = 0; i < increases.size() && outcomes[i].ran; ++i) {
    const GroupIncrease& increase = *increases[i];
    const NodeGroup* group = it->Group(increase.group);
    AtomicScaleUp::Part part{group->name, increase.delta, {}};
    for (const LiveNode& node : it->nodes) {
      if (it->group_of(node.state) == group->name) {
        part.nodes_before.insert(node.state.name);
      }
    }
    LOG(INFO) << "scale-up (all or nothing, ProvisioningRequest "
              << request.Key() << "): " << DescribeIncrease(increase, *group)
              << " for " << increase.pods.size() << " pods";
    scale_up.parts.push_back(std::move(part));
    const Status& status = outcomes[i].status;
    if (!status.ok()) {
      scale_up.refused = "node group " + group->name + ": " + status.message();
      if (status.code() != StatusCode::kConflict) {
        reporter_->ScaleUpFailed(group->name);
        backoff_.Fail(group->name, it->now,
                      {"cloudProviderError", status.message()});
      }
      break;
    }
    provision_.ScaledUp(group->name, it->now);
    reporter_->ScaleUpRequested(group->name);
    last_scale_up_ =
        DescribeIncrease(increase, *group) + " at " + FormatMicroTime(it->now);
  }
  timers_.ScaledUp(it->now);
  if (scale_up.refused.empty() &&
      WriteConditions(request, ScaleUpAccepted(outcome.summary, it->now),
                      *it)) {
    provreq_backoff_.Forget(request.uid);
    reporter_->Provisioned(it->now - request.created);
  }
  atomic_scale_ups_.push_back(std::move(scale_up));
  return true;
}

std::vector<AtomicNode> NodeScaleLoop::AtomicNodesOf(
    const Iteration& it, std::vector<std::string>* groups) {
  groups->clear();
  groups->reserve(it.nodes.size());
  for (const LiveNode& node : it.nodes)
    groups->push_back(it.group_of(node.state));
  std::vector<AtomicNode> nodes;
  nodes.reserve(it.nodes.size());
  for (size_t i = 0; i < it.nodes.size(); ++i) {
    nodes.push_back({it.nodes[i].state.name, (*groups)[i],
                     it.readiness[i] == Readiness::kReady});
  }
  return nodes;
}

void NodeScaleLoop::AdvanceAtomicScaleUps(Iteration* it) {
  if (atomic_scale_ups_.empty()) return;
  std::vector<std::string> groups;
  const std::vector<AtomicNode> nodes = AtomicNodesOf(*it, &groups);
  std::vector<AtomicScaleUp> in_flight;
  for (AtomicScaleUp& scale_up : atomic_scale_ups_) {
    const AtomicProgress progress = ProgressOf(
        scale_up, nodes, it->groups, options_.max_node_provision_time, it->now);
    switch (progress.state) {
      case AtomicProgress::State::kDone:
        LOG(INFO) << "ProvisioningRequest " << scale_up.request << ": all "
                  << progress.asked << " nodes of its scale-up are Ready";
        break;
      case AtomicProgress::State::kInFlight:
        it->provisioning_requests.push_back(
            scale_up.request + ": all-or-nothing scale-up in flight, " +
            std::to_string(progress.ready) + " of " +
            std::to_string(progress.asked) +
            " new nodes Ready (given back unless all are by " +
            FormatMicroTime(progress.deadline) + ")");
        in_flight.push_back(std::move(scale_up));
        break;
      case AtomicProgress::State::kGiveBack:
        GiveBack(scale_up, progress, nodes, it);
        break;
    }
  }
  atomic_scale_ups_ = std::move(in_flight);
}

void NodeScaleLoop::GiveBack(const AtomicScaleUp& scale_up,
                             const AtomicProgress& progress,
                             const std::vector<AtomicNode>& nodes,
                             Iteration* it) {
  if (!executor_.MayAct()) return;
  // Nodes asked for and not registered: off the target.
  std::vector<NodeScaleAction> decreases;
  for (const AtomicScaleUp::Part& part : scale_up.parts) {
    const NodeGroup* group = it->Group(part.group);
    if (group == nullptr) continue;
    const int64_t unregistered = UnregisteredOf(part, *group, nodes);
    if (unregistered > 0) {
      decreases.push_back(DecreaseTarget{part.group, unregistered});
    }
  }
  executor_.Run(decreases, ClusterViewOf(*it, it->pods));
  std::vector<RemovalQueue::Target> came;
  for (const AtomicProgress::Came& node : progress.came) {
    came.push_back({node.node, node.group});
  }
  if (!came.empty()) RemoveNodes(came, /*all_or_nothing=*/false, it);
  const std::string what = GiveBackReason(scale_up, progress);
  LOG(WARNING) << "ProvisioningRequest " << scale_up.request << ": " << what;
  for (const kube::ProvisioningRequest& request :
       state_->ProvisioningRequests()) {
    if (request.uid != scale_up.request_uid) continue;
    reporter_->RequestEvent(request, /*warning=*/true, "NodesGivenBack", what);
    const std::vector<kube::ProvReqCondition> conditions =
        GivenBack(request, what, it->now);
    if (WriteConditions(request, conditions, *it) &&
        conditions.front().type == kube::kProvisioned) {
      provreq_backoff_.Failed(request.uid);
    }
  }
}

}  // namespace propscaler::nodescale
