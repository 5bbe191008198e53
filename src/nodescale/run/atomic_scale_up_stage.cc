#include "nodescale/run/atomic_scale_up_stage.h"

#include <glog/logging.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/utc_time.h"
#include "nodescale/plan/provisioning_requests/atomic_scale_up.h"
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

std::vector<AtomicNode> AtomicScaleUpStage::AtomicNodesOf(
    const LoopIteration& it, std::vector<std::string>* groups) {
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

void AtomicScaleUpStage::Advance(LoopIteration* it) {
  if (c_.memory->requests.atomic_scale_ups.empty()) return;
  std::vector<std::string> groups;
  const std::vector<AtomicNode> nodes = AtomicNodesOf(*it, &groups);
  std::vector<AtomicScaleUp> in_flight;
  for (AtomicScaleUp& scale_up : c_.memory->requests.atomic_scale_ups) {
    const AtomicProgress progress =
        ProgressOf(scale_up, nodes, it->groups,
                   c_.options->max_node_provision_time, it->now);
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
  c_.memory->requests.atomic_scale_ups = std::move(in_flight);
}

void AtomicScaleUpStage::GiveBack(const AtomicScaleUp& scale_up,
                                  const AtomicProgress& progress,
                                  const std::vector<AtomicNode>& nodes,
                                  LoopIteration* it) {
  if (!c_.executor->MayAct()) return;
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
  c_.executor->Run(decreases, it->View());
  std::vector<RemovalTarget> came;
  for (const AtomicProgress::Came& node : progress.came) {
    came.push_back({node.node, node.group});
  }
  if (!came.empty()) RemoveNodes(c_, came, /*all_or_nothing=*/false, *it);
  const std::string what = GiveBackReason(scale_up, progress);
  LOG(WARNING) << "ProvisioningRequest " << scale_up.request << ": " << what;
  for (const kube::ProvisioningRequest& request :
       c_.state->ProvisioningRequests()) {
    if (request.uid != scale_up.request_uid) continue;
    c_.reporter->RequestEvent(request, /*warning=*/true, "NodesGivenBack",
                              what);
    const std::vector<kube::ProvReqCondition> conditions =
        GivenBack(request, what, it->now);
    if (requests_->WriteConditions(request, conditions, *it) &&
        conditions.front().type == kube::kProvisioned) {
      c_.memory->requests.backoff.Failed(request.uid);
    }
  }
}

}  // namespace propscaler::nodescale
