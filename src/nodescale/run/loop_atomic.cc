// best-effort-atomic-scale-up ProvisioningRequests in the node-scale loop:
// the due request's pods planned all or nothing (plan/scale_up.h) and the
// plan asked of the provider at once; then each such scale-up followed
// until its nodes are Ready, or given back when they do not all come:
// kwok and Cluster API have no atomic resize, so a half-filled scale-up is
// undone here instead (Cluster Autoscaler leaves it).
#include <glog/logging.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/utc_time.h"
#include "nodescale/plan/provreq_atomic.h"
#include "nodescale/plan/provreq_capacity.h"
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
  if (!it->atomic || expander == nullptr || !may_act_()) return false;
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
    if (!WriteConditions(request, outcome.conditions)) return false;
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
  for (const GroupIncrease& increase : plan.increases) {
    const NodeGroup* group = it->Group(increase.group);
    if (group == nullptr) continue;
    AtomicScaleUp::Part part{group->name, increase.delta, {}};
    for (const LiveNode& node : it->nodes) {
      if (it->group_of(node.state) == group->name) {
        part.nodes_before.insert(node.state.name);
      }
    }
    LOG(INFO) << "scale-up (all or nothing, ProvisioningRequest "
              << request.Key() << "): " << DescribeIncrease(increase, *group)
              << " for " << increase.pods.size() << " pods";
    Status status = provider_->IncreaseSize(*group, increase.delta);
    scale_up.parts.push_back(std::move(part));
    if (!status.ok()) {
      scale_up.refused = "node group " + group->name + ": " + status.message();
      if (status.code() != StatusCode::kConflict) {
        reporter_->ScaleUpFailed(group->name);
        backoff_.Fail(group->name, it->now);
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
      WriteConditions(request, ScaleUpAccepted(outcome.summary, it->now))) {
    provreq_backoff_.Forget(request.uid);
    reporter_->Provisioned(it->now - request.created);
  }
  atomic_scale_ups_.push_back(std::move(scale_up));
  return true;
}

void NodeScaleLoop::AdvanceAtomicScaleUps(Iteration* it) {
  std::vector<AtomicScaleUp> in_flight;
  for (AtomicScaleUp& scale_up : atomic_scale_ups_) {
    int64_t asked = 0;
    int64_t ready = 0;
    std::vector<RemovalQueue::Target> came;
    Duration provision_time = options_.max_node_provision_time;
    for (const AtomicScaleUp::Part& part : scale_up.parts) {
      asked += part.delta;
      const NodeGroup* group = it->Group(part.group);
      if (group != nullptr && group->options.max_node_provision_time) {
        provision_time =
            std::max(provision_time, *group->options.max_node_provision_time);
      }
      int64_t new_nodes = 0;
      for (size_t i = 0; i < it->nodes.size(); ++i) {
        const NodeState& node = it->nodes[i].state;
        if (new_nodes == part.delta || it->group_of(node) != part.group ||
            part.nodes_before.contains(node.name)) {
          continue;
        }
        ++new_nodes;
        if (it->readiness[i] == Readiness::kReady) ++ready;
        came.push_back({node.name, part.group});
      }
    }
    if (ready == asked) {
      LOG(INFO) << "ProvisioningRequest " << scale_up.request << ": all "
                << asked << " nodes of its scale-up are Ready";
      continue;
    }
    if (scale_up.refused.empty() && it->now - scale_up.asked < provision_time) {
      it->provisioning_requests.push_back(
          scale_up.request + ": all-or-nothing scale-up in flight, " +
          std::to_string(ready) + " of " + std::to_string(asked) +
          " new nodes Ready (given back unless all are by " +
          FormatMicroTime(scale_up.asked + provision_time) + ")");
      in_flight.push_back(std::move(scale_up));
      continue;
    }
    GiveBack(scale_up, came, ready, asked, provision_time, it);
  }
  atomic_scale_ups_ = std::move(in_flight);
}

void NodeScaleLoop::GiveBack(const AtomicScaleUp& scale_up,
                             const std::vector<RemovalQueue::Target>& came,
                             int64_t ready, int64_t asked,
                             Duration provision_time, Iteration* it) {
  if (!may_act_()) return;
  // Nodes asked for and not registered: off the target.
  for (const AtomicScaleUp::Part& part : scale_up.parts) {
    const NodeGroup* group = it->Group(part.group);
    if (group == nullptr) continue;
    std::vector<const NodeState*> registered;
    int64_t registered_new = 0;
    for (const LiveNode& node : it->nodes) {
      if (it->group_of(node.state) != part.group) continue;
      registered.push_back(&node.state);
      if (!part.nodes_before.contains(node.state.name)) ++registered_new;
    }
    const int64_t unregistered =
        std::min(part.delta - std::min(registered_new, part.delta),
                 group->target_size - static_cast<int64_t>(registered.size()));
    if (unregistered <= 0) continue;
    Status decreased =
        provider_->DecreaseTargetSize(*group, unregistered, registered);
    LOG_IF(WARNING, !decreased.ok()) << decreased.message();
  }
  if (!came.empty()) RemoveNodes(came, /*all_or_nothing=*/false, it);
  const std::string what =
      (scale_up.refused.empty()
           ? "only " + std::to_string(ready) + " of its " +
                 std::to_string(asked) + " new nodes were Ready within " +
                 std::to_string(
                     std::chrono::duration_cast<std::chrono::seconds>(
                         provision_time)
                         .count()) +
                 "s (--max-node-provision-time)"
           : "the provider refused the scale-up (" + scale_up.refused + ")") +
      "; the " + std::to_string(came.size()) +
      " nodes that came are given back";
  LOG(WARNING) << "ProvisioningRequest " << scale_up.request << ": " << what;
  for (const kube::ProvisioningRequest& request :
       state_->ProvisioningRequests()) {
    if (request.uid != scale_up.request_uid) continue;
    reporter_->RequestEvent(request, /*warning=*/true, "NodesGivenBack", what);
    const std::vector<kube::ProvReqCondition> conditions =
        GivenBack(request, what, it->now);
    if (WriteConditions(request, conditions) &&
        conditions.front().type == kube::kProvisioned) {
      provreq_backoff_.Failed(request.uid);
    }
  }
}

}  // namespace propscaler::nodescale
