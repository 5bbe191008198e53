#include "nodescale/run/atomic_scale_up_stage.h"

#include <glog/logging.h>

#include <algorithm>
#include <string>
#include <vector>

#include "nodescale/plan/provisioning_requests/provreq_atomic.h"
#include "nodescale/plan/provisioning_requests/provreq_capacity.h"

namespace propscaler::nodescale {
namespace {

bool IsRequestPod(const PodState& pod,
                  const kube::ProvisioningRequest& request) {
  return *pod.owner_kind == kProvisioningRequestKind &&
         *pod.owner_name == request.name &&
         pod.namespace_ == request.namespace_;
}

}  // namespace

AtomicScaleUpStage::AtomicScaleUpStage(LoopContext context,
                                       ProvisioningRequestStage* requests)
    : c_(context), requests_(requests) {}

bool AtomicScaleUpStage::ScaleUp(ExpanderChain* expander, LoopIteration* it) {
  if (!it->atomic || expander == nullptr || !c_.executor->MayAct())
    return false;
  const kube::ProvisioningRequest& request = it->atomic->request;
  std::vector<PodState>& pods = it->atomic->pods;
  for (const PodState& pod : pods) it->snapshot.pods.push_back(pod);
  const AtomicOutcome outcome = PlanAtomicRequest(
      request, pods, it->snapshot, it->groups, c_.memory->scale_up,
      c_.options->scale_up, expander, it->now);
  it->snapshot.pods.EraseIf(
      [&request](const PodState& pod) { return IsRequestPod(pod, request); });
  const ScaleUpPlan& plan = outcome.plan;
  if (plan.increases.empty()) {
    LOG(INFO) << "ProvisioningRequest " << request.Key() << " ("
              << request.PodCount()
              << " pods, all or nothing): " << outcome.summary;
    if (!requests_->WriteConditions(request, outcome.conditions, *it))
      return false;
    if (!outcome.fits) {
      c_.memory->requests.backoff.Failed(request.uid);
      return false;
    }
    c_.memory->requests.backoff.Forget(request.uid);
    c_.reporter->Provisioned(it->now - request.created);
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
  const std::vector<ActionOutcome> outcomes =
      c_.executor->Run(actions, it->View(), ActionExecutor::OnFailure::kStop);
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
    if (!NoteIncrease(c_, increase, *group, status, it->now)) {
      scale_up.refused = "node group " + group->name + ": " + status.message();
      break;
    }
  }
  c_.memory->timers.ScaledUp(it->now);
  if (scale_up.refused.empty() &&
      requests_->WriteConditions(
          request, ScaleUpAccepted(outcome.summary, it->now), *it)) {
    c_.memory->requests.backoff.Forget(request.uid);
    c_.reporter->Provisioned(it->now - request.created);
  }
  c_.memory->requests.atomic_scale_ups.push_back(std::move(scale_up));
  return true;
}

void AtomicScaleUpStage::Advance(LoopIteration* it) {
  if (c_.memory->requests.atomic_scale_ups.empty()) return;
  const std::vector<kube::ProvisioningRequest> requests =
      c_.state->ProvisioningRequests();
  AtomicAdvance advance = AdvanceAtomicScaleUps(
      std::move(c_.memory->requests.atomic_scale_ups),
      {&it->nodes, &it->group_of, &it->readiness, &it->groups, &requests,
       c_.options->max_node_provision_time, it->now});
  c_.memory->requests.atomic_scale_ups = std::move(advance.in_flight);
  for (const std::string& done : advance.done) {
    LOG(INFO) << "ProvisioningRequest " << done;
  }
  for (std::string& line : advance.lines) {
    it->provisioning_requests.push_back(std::move(line));
  }
  if (!c_.executor->MayAct()) return;
  for (const AtomicGiveBack& give_back : advance.give_backs) {
    GiveBack(give_back, *it);
  }
}

void AtomicScaleUpStage::GiveBack(const AtomicGiveBack& give_back,
                                  const LoopIteration& it) {
  c_.executor->Run(give_back.decreases, it.View());
  if (!give_back.came.empty()) {
    RemoveNodes(c_, give_back.came, /*all_or_nothing=*/false, it);
  }
  LOG(WARNING) << "ProvisioningRequest " << give_back.request << ": "
               << give_back.reason;
  if (!give_back.listed) return;
  const kube::ProvisioningRequest& request = *give_back.listed;
  c_.reporter->RequestEvent(request, /*warning=*/true, "NodesGivenBack",
                            give_back.reason);
  if (requests_->WriteConditions(request, give_back.conditions, it) &&
      give_back.conditions.front().type == kube::kProvisioned) {
    c_.memory->requests.backoff.Failed(request.uid);
  }
}

}  // namespace propscaler::nodescale
