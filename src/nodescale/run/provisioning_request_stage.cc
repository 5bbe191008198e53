#include "nodescale/run/provisioning_request_stage.h"

#include <glog/logging.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "nodescale/plan/buffers/buffer_demand.h"
#include "nodescale/plan/provisioning_requests/provreq_capacity.h"
#include "nodescale/plan/provisioning_requests/provreq_pass.h"
#include "nodescale/plan/scale_up/upcoming_nodes.h"

namespace propscaler::nodescale {
ProvisioningRequestStage::ProvisioningRequestStage(LoopContext context)
    : c_(context) {}

Result<std::vector<PodState>> ProvisioningRequestStage::RequestPods(
    const kube::ProvisioningRequest& request, int64_t limit,
    const LoopIteration& it) const {
  return RequestPodsFrom(request, *it.pod_templates, limit, "the cluster");
}

bool ProvisioningRequestStage::WriteConditions(
    const kube::ProvisioningRequest& request,
    const std::vector<kube::ProvReqCondition>& set, const LoopIteration& it) {
  // A conflict: it changed; the next loop reads it again.
  if (!c_.executor->Run(WriteRequestConditions{request, set}, it.View()).ok()) {
    return false;
  }
  c_.memory->requests.acted[request.uid] = request.resource_version;
  return true;
}

void ProvisioningRequestStage::TellConsumingPods(
    const std::map<std::string, std::string>& waiting,
    const LoopIteration& it) {
  // As Cluster Autoscaler, at most 50 a loop; unlike it, once a pod.
  constexpr int kMaxEvents = 50;
  std::erase_if(
      c_.memory->requests.consumers_told,
      [&waiting](const std::string& key) { return waiting.count(key) == 0; });
  if (waiting.empty() || !c_.executor->MayAct()) return;
  const std::map<std::string, const LivePod*> pods = it.PendingPodsByKey();
  int told = 0;
  for (const auto& [key, request] : waiting) {
    if (told == kMaxEvents) break;
    auto pod = pods.find(key);
    if (pod == pods.end() ||
        !c_.memory->requests.consumers_told.insert(key).second)
      continue;
    c_.reporter->PodEvent(*pod->second, /*warning=*/false, "NotTriggerScaleUp",
                          "Unschedulable pod didn't trigger scale-up, because "
                          "it's consuming ProvisioningRequest " +
                              request);
    ++told;
  }
}

void ProvisioningRequestStage::Handle(LoopIteration* it) {
  if (!c_.options->provisioning_requests) return;
  const ConsumingPods consuming = TakeOutConsumingPods(&it->snapshot.pods);
  TellConsumingPods(consuming.waiting, *it);
  const std::vector<kube::ProvisioningRequest> requests =
      c_.state->ProvisioningRequests();
  it->pod_templates = c_.state->PodTemplates();
  if (!it->pod_templates) {
    for (const kube::ProvisioningRequest& request : requests) {
      it->provisioning_requests.push_back(
          request.Key() + ": waits for PodTemplates to be listed");
    }
    return;
  }
  std::erase_if(c_.memory->requests.acted, [&requests](const auto& acted) {
    return std::none_of(requests.begin(), requests.end(),
                        [&acted](const kube::ProvisioningRequest& r) {
                          return r.uid == acted.first;
                        });
  });
  ProvReqPass pass = PlanProvisioningRequests(
      requests, consuming.scheduled, c_.memory->requests.acted,
      c_.memory->requests.backoff, c_.options->provisioning,
      c_.options->check_capacity, it->now);
  std::vector<PodState> booked;
  std::vector<const kube::ProvisioningRequest*> to_check;
  for (ProvReqTodo& todo : pass.todo) {
    const kube::ProvisioningRequest& request = *todo.request;
    switch (todo.kind) {
      case ProvReqTodo::Kind::kNothing:
        break;
      case ProvReqTodo::Kind::kWrite:
        WriteConditions(request, todo.verdict.conditions, *it);
        break;
      case ProvReqTodo::Kind::kDelete:
        c_.memory->requests.backoff.Forget(request.uid);
        c_.executor->Run(DeleteRequest{request}, it->View());
        break;
      case ProvReqTodo::Kind::kBook: {
        Result<std::vector<PodState>> pods =
            RequestPods(request, todo.verdict.booked_pods, *it);
        if (pods.ok()) {
          for (PodState& pod : *pods) booked.push_back(std::move(pod));
        } else {
          todo.line += "; its room is not held: " + pods.status().message();
        }
        break;
      }
      case ProvReqTodo::Kind::kAtomic:
        TakeAtomicRequest(request, it, &todo.line);
        break;
      case ProvReqTodo::Kind::kCheck:
        to_check.push_back(&request);
        break;
    }
    it->provisioning_requests.push_back(std::move(todo.line));
  }
  CheckDueRequests(to_check, &booked, it);
  if (!booked.empty()) {
    it->snapshot.pods = BookedFirst(std::move(booked), it->snapshot.pods);
  }
  PublishCounts(pass.counts);
}

void ProvisioningRequestStage::TakeAtomicRequest(
    const kube::ProvisioningRequest& request, LoopIteration* it,
    std::string* line) {
  if (it->atomic) {
    *line += "; waits for the next loop (one atomic scale-up a loop)";
    return;
  }
  std::optional<std::vector<PodState>> pods = PodsToPlace(request, *it);
  if (pods)
    it->atomic = LoopIteration::AtomicRequest{request, std::move(*pods)};
}

std::optional<std::vector<PodState>> ProvisioningRequestStage::PodsToPlace(
    const kube::ProvisioningRequest& request, const LoopIteration& it) {
  // More pods than the cluster grown to every group's maximum can hold
  // are not built: such a request fits nowhere anyway.
  const int64_t bound =
      MaxBufferChunks(it.snapshot.nodes, it.groups).chunks + 1;
  Result<std::vector<PodState>> pods =
      RequestPods(request, std::min(request.PodCount(), bound), it);
  if (AwaitsTemplates(pods.status(), request, it.now)) return std::nullopt;
  if (!pods.ok()) {
    WriteConditions(request,
                    {{kube::kFailed, "True", "FailedToCreatePods",
                      pods.status().message(), it.now}},
                    it);
    return std::nullopt;
  }
  return std::move(pods).value();
}

void ProvisioningRequestStage::CheckDueRequests(
    const std::vector<const kube::ProvisioningRequest*>& due,
    std::vector<PodState>* booked, LoopIteration* it) {
  if (due.empty()) return;
  const UpcomingNodes upcoming = UpcomingNodesOf(
      it->snapshot, it->groups, c_.memory->scale_up, c_.options->scale_up);
  const PodList placed = BookedFirst(*booked, it->snapshot.pods);
  CapacityChecker checker(it->snapshot.nodes, upcoming.bins, placed);
  // Each request's pods stay where the checker placed them.
  std::vector<std::vector<PodState>> checked;
  std::vector<size_t> fitting;
  const TimePoint started = c_.clock->Now();
  for (size_t k = 0; k < due.size(); ++k) {
    // --check-capacity-provisioning-request-batch-timebox, after each.
    if (!c_.options->check_capacity.MayCheck(k, c_.clock->Now() - started)) {
      LOG(INFO) << "check-capacity batch: the timebox is up; " << due.size() - k
                << " requests wait for the next loop";
      break;
    }
    const kube::ProvisioningRequest& request = *due[k];
    std::optional<std::vector<PodState>> pods = PodsToPlace(request, *it);
    if (!pods) continue;
    checked.push_back(std::move(*pods));
    const bool fits =
        checker.Check(checked.back()) &&
        static_cast<int64_t>(checked.back().size()) == request.PodCount();
    LOG(INFO) << "ProvisioningRequest " << request.Key() << ": "
              << request.PodCount() << " pods "
              << (fits ? "fit the nodes there are: provisioned"
                       : "do not all fit the nodes there are");
    if (!WriteConditions(request, CheckOutcome(request, fits, it->now), *it)) {
      continue;  // not this process's to answer, or not written
    }
    if (!fits) {
      c_.memory->requests.backoff.Failed(request.uid);
      continue;
    }
    c_.memory->requests.backoff.Forget(request.uid);
    c_.reporter->Provisioned(it->now - request.created);
    fitting.push_back(checked.size() - 1);
  }
  for (size_t i : fitting) {
    for (PodState& pod : checked[i]) booked->push_back(std::move(pod));
  }
}

void ProvisioningRequestStage::PublishCounts(
    const std::map<std::pair<std::string, std::string>, int64_t>& counts) {
  for (const auto& [key, count] : counts) {
    for (const char* state : kProvReqStates)
      c_.memory->requests.counts_seen[{key.first, state}];
  }
  for (auto& [key, count] : c_.memory->requests.counts_seen) {
    auto now = counts.find(key);
    count = now == counts.end() ? 0 : now->second;
  }
  c_.reporter->ProvisioningRequests(c_.memory->requests.counts_seen);
}

}  // namespace propscaler::nodescale
