#include "nodescale/plan/requests_pass.h"

#include <algorithm>
#include <utility>

#include "nodescale/plan/buffers/buffer_demand.h"
#include "nodescale/plan/provisioning_requests/provreq_capacity.h"
#include "nodescale/plan/provisioning_requests/provreq_pass.h"
#include "nodescale/plan/scale_up/upcoming_nodes.h"

namespace propscaler::nodescale {
namespace {

// As Cluster Autoscaler, at most 50 a loop; unlike it, once a pod.
constexpr int kMaxConsumerEvents = 50;

class Pass {
 public:
  Pass(const RequestsInput& input, const NodeScaleSettings& settings,
       ClusterSnapshot* snapshot, LoopMemory* memory)
      : in_(input), settings_(settings), snapshot_(snapshot), memory_(memory) {}

  RequestsPass Run();

 private:
  void Write(const kube::ProvisioningRequest& request,
             std::vector<kube::ProvReqCondition> set,
             RequestWrite::Then then = RequestWrite::Then::kNothing);
  void TellConsumingPods(const std::map<std::string, std::string>& waiting);
  // The request's pods, at most what the cluster grown to every group's
  // maximum could hold; nullopt when they cannot be built (the request
  // then Failed, FailedToCreatePods) or its template may still come.
  std::optional<std::vector<PodState>> PodsToPlace(
      const kube::ProvisioningRequest& request);
  void TakeAtomicRequest(const kube::ProvisioningRequest& request,
                         std::string* line);
  void CheckDueRequests(
      const std::vector<const kube::ProvisioningRequest*>& due,
      std::vector<PodState>* booked);
  void CountStates(
      const std::map<std::pair<std::string, std::string>, int64_t>& counts);

  const RequestsInput& in_;
  const NodeScaleSettings& settings_;
  ClusterSnapshot* snapshot_;
  LoopMemory* memory_;
  RequestsPass out_;
};

void Pass::Write(const kube::ProvisioningRequest& request,
                 std::vector<kube::ProvReqCondition> set,
                 RequestWrite::Then then) {
  out_.writes.push_back({out_.actions.size(), request, then});
  out_.actions.push_back(WriteRequestConditions{request, std::move(set)});
}

void Pass::TellConsumingPods(
    const std::map<std::string, std::string>& waiting) {
  std::erase_if(
      memory_->requests.consumers_told,
      [&waiting](const std::string& key) { return waiting.count(key) == 0; });
  if (waiting.empty() || !in_.may_act) return;
  int told = 0;
  for (const auto& [key, request] : waiting) {
    if (told == kMaxConsumerEvents) break;
    if (!memory_->requests.consumers_told.insert(key).second) continue;
    out_.tell[key] = request;
    ++told;
  }
}

std::optional<std::vector<PodState>> Pass::PodsToPlace(
    const kube::ProvisioningRequest& request) {
  // More pods than the cluster grown to every group's maximum can hold
  // are not built: such a request fits nowhere anyway.
  const int64_t bound =
      MaxBufferChunks(snapshot_->nodes, *in_.groups).chunks + 1;
  Result<std::vector<PodState>> pods =
      RequestPodsFrom(request, **in_.templates,
                      std::min(request.PodCount(), bound), "the cluster");
  if (AwaitsTemplates(pods.status(), request, in_.now)) return std::nullopt;
  if (!pods.ok()) {
    Write(request, {{kube::kFailed, "True", "FailedToCreatePods",
                     pods.status().message(), in_.now}});
    return std::nullopt;
  }
  return std::move(pods).value();
}

void Pass::TakeAtomicRequest(const kube::ProvisioningRequest& request,
                             std::string* line) {
  if (out_.atomic) {
    *line += "; waits for the next loop (one atomic scale-up a loop)";
    return;
  }
  std::optional<std::vector<PodState>> pods = PodsToPlace(request);
  if (pods) out_.atomic = AtomicRequest{request, std::move(*pods)};
}

void Pass::CheckDueRequests(
    const std::vector<const kube::ProvisioningRequest*>& due,
    std::vector<PodState>* booked) {
  if (due.empty()) return;
  const UpcomingNodes upcoming = UpcomingNodesOf(
      *snapshot_, *in_.groups, memory_->scale_up, settings_.scale_up);
  const PodList placed = BookedFirst(*booked, snapshot_->pods);
  CapacityChecker checker(snapshot_->nodes, upcoming.bins, placed);
  // Each request's pods stay where the checker placed them.
  std::vector<std::vector<PodState>> checked;
  if (in_.timer != nullptr) in_.timer->Begin();
  for (size_t k = 0; k < due.size(); ++k) {
    // --check-capacity-provisioning-request-batch-timebox, after each.
    const Duration elapsed =
        in_.timer == nullptr ? Duration() : in_.timer->Elapsed();
    if (!settings_.check_capacity.MayCheck(k, elapsed)) {
      out_.log.push_back("check-capacity batch: the timebox is up; " +
                         std::to_string(due.size() - k) +
                         " requests wait for the next loop");
      break;
    }
    const kube::ProvisioningRequest& request = *due[k];
    std::optional<std::vector<PodState>> pods = PodsToPlace(request);
    if (!pods) continue;
    checked.push_back(std::move(*pods));
    const bool fits =
        checker.Check(checked.back()) &&
        static_cast<int64_t>(checked.back().size()) == request.PodCount();
    out_.log.push_back("ProvisioningRequest " + request.Key() + ": " +
                       std::to_string(request.PodCount()) + " pods " +
                       (fits ? "fit the nodes there are: provisioned"
                             : "do not all fit the nodes there are"));
    if (!in_.may_act) continue;  // not this process's to answer
    Write(
        request, CheckOutcome(request, fits, in_.now),
        fits ? RequestWrite::Then::kProvisioned : RequestWrite::Then::kBackOff);
    // The room is held from this loop on; a write refused (the request
    // changed) is read again next loop.
    if (fits) {
      for (PodState& pod : checked.back()) booked->push_back(std::move(pod));
    }
  }
}

void Pass::CountStates(
    const std::map<std::pair<std::string, std::string>, int64_t>& counts) {
  for (const auto& [key, count] : counts) {
    for (const char* state : kProvReqStates)
      memory_->requests.counts_seen[{key.first, state}];
  }
  for (auto& [key, count] : memory_->requests.counts_seen) {
    auto now = counts.find(key);
    count = now == counts.end() ? 0 : now->second;
  }
}

RequestsPass Pass::Run() {
  const ConsumingPods consuming = TakeOutConsumingPods(&snapshot_->pods);
  TellConsumingPods(consuming.waiting);
  const std::vector<kube::ProvisioningRequest>& requests = *in_.requests;
  if (!in_.templates->has_value()) {
    for (const kube::ProvisioningRequest& request : requests) {
      out_.lines.push_back(request.Key() +
                           ": waits for PodTemplates to be listed");
    }
    return std::move(out_);
  }
  out_.listed = true;
  std::erase_if(memory_->requests.acted, [&requests](const auto& acted) {
    return std::none_of(requests.begin(), requests.end(),
                        [&acted](const kube::ProvisioningRequest& r) {
                          return r.uid == acted.first;
                        });
  });
  ProvReqPass pass = PlanProvisioningRequests(
      requests, consuming.scheduled, memory_->requests.acted,
      memory_->requests.backoff, settings_.provisioning,
      settings_.check_capacity, in_.now);
  std::vector<PodState> booked;
  std::vector<const kube::ProvisioningRequest*> to_check;
  for (ProvReqTodo& todo : pass.todo) {
    const kube::ProvisioningRequest& request = *todo.request;
    switch (todo.kind) {
      case ProvReqTodo::Kind::kNothing:
        break;
      case ProvReqTodo::Kind::kWrite:
        Write(request, todo.verdict.conditions);
        break;
      case ProvReqTodo::Kind::kDelete:
        memory_->requests.backoff.Forget(request.uid);
        out_.actions.push_back(DeleteRequest{request});
        break;
      case ProvReqTodo::Kind::kBook: {
        Result<std::vector<PodState>> pods = RequestPodsFrom(
            request, **in_.templates, todo.verdict.booked_pods, "the cluster");
        if (pods.ok()) {
          for (PodState& pod : *pods) booked.push_back(std::move(pod));
        } else {
          todo.line += "; its room is not held: " + pods.status().message();
        }
        break;
      }
      case ProvReqTodo::Kind::kAtomic:
        TakeAtomicRequest(request, &todo.line);
        break;
      case ProvReqTodo::Kind::kCheck:
        to_check.push_back(&request);
        break;
    }
    out_.lines.push_back(std::move(todo.line));
  }
  CheckDueRequests(to_check, &booked);
  if (!booked.empty()) {
    snapshot_->pods = BookedFirst(std::move(booked), snapshot_->pods);
  }
  CountStates(pass.counts);
  return std::move(out_);
}

bool IsRequestPod(const PodState& pod,
                  const kube::ProvisioningRequest& request) {
  return *pod.owner_kind == kProvisioningRequestKind &&
         *pod.owner_name == request.name &&
         pod.namespace_ == request.namespace_;
}

}  // namespace

RequestsPass PlanRequests(const RequestsInput& input,
                          const NodeScaleSettings& settings,
                          ClusterSnapshot* snapshot, LoopMemory* memory) {
  return Pass(input, settings, snapshot, memory).Run();
}

AtomicScaleUpDecision AtomicScaleUpOf(
    AtomicRequest atomic, const std::vector<NodeGroup>& groups,
    const SharedNodes& nodes, const GroupOfNode& group_of,
    const LoopMemory& memory, const NodeScaleSettings& settings,
    ExpanderChain* expander, TimePoint now, ClusterSnapshot* snapshot) {
  AtomicScaleUpDecision d{std::move(atomic.request), {}, {}, {}, {}, {}};
  const kube::ProvisioningRequest& request = d.request;
  for (const PodState& pod : atomic.pods) snapshot->pods.push_back(pod);
  d.outcome =
      PlanAtomicRequest(request, atomic.pods, *snapshot, groups,
                        memory.scale_up, settings.scale_up, expander, now);
  snapshot->pods.EraseIf(
      [&request](const PodState& pod) { return IsRequestPod(pod, request); });
  if (d.outcome.plan.increases.empty()) {
    d.write = RequestWrite{0, request,
                           !d.outcome.fits ? RequestWrite::Then::kBackOff
                                           : RequestWrite::Then::kProvisioned};
    d.actions.push_back(WriteRequestConditions{request, d.outcome.conditions});
    // Its room is held from this loop on, as a check-capacity request's.
    if (d.outcome.fits) {
      snapshot->pods = BookedFirst(std::move(atomic.pods), snapshot->pods);
    }
    return d;
  }
  const std::vector<GroupIncrease>& increases = d.outcome.plan.increases;
  for (size_t k = 0; k < increases.size(); ++k) {
    const GroupIncrease& increase = increases[k];
    if (FindGroup(groups, increase.group) == nullptr) continue;
    AtomicScaleUp::Part part{increase.group, increase.delta, {}};
    for (const LiveNode& node : nodes) {
      if (group_of(node.state) == increase.group) {
        part.nodes_before.insert(node.state.name);
      }
    }
    d.parts.push_back(std::move(part));
    d.part_increase.push_back(k);
    d.actions.push_back(IncreaseSize{increase.group, increase.delta});
  }
  d.write =
      RequestWrite{d.actions.size(), request, RequestWrite::Then::kProvisioned};
  d.actions.push_back(
      WriteRequestConditions{request, ScaleUpAccepted(d.outcome.summary, now)});
  return d;
}

}  // namespace propscaler::nodescale
