#include "vertical/in_place_plan.h"

#include <algorithm>

#include "common/quantity.h"

namespace propscaler {
namespace {

using kube::ResizeState;

bool Sizable(const kube::ResizedPod& pod) {
  return !pod.terminating && (pod.phase == "Running" || pod.phase == "Pending");
}

bool Refused(ResizeState state) {
  return state == ResizeState::kDeferred || state == ResizeState::kInfeasible ||
         state == ResizeState::kError || state == ResizeState::kRefused;
}

// Whether `applied` reports `resource` at a value other than `asked`. The
// runtime reports CPU back through cgroup shares, so a value within 1% (or
// 2m) of the one asked counts as applied.
bool Differs(const kube::ResourceList& asked, const kube::ResourceList& applied,
             const std::string& resource) {
  auto reported = applied.find(resource);
  if (reported == applied.end()) return false;
  auto wanted = asked.find(resource);
  if (wanted == asked.end()) return true;
  Result<int64_t> a = ParseMilliQuantity(wanted->second);
  Result<int64_t> b = ParseMilliQuantity(reported->second);
  if (!a.ok() || !b.ok()) return true;
  const int64_t gap = *a > *b ? *a - *b : *b - *a;
  return gap > std::max<int64_t>(2, *a / 100);
}

bool SideDiffers(const std::map<std::string, int64_t>& names,
                 const kube::ResourceList& asked,
                 const kube::ResourceList& applied) {
  return std::any_of(names.begin(), names.end(), [&](const auto& entry) {
    return Differs(asked, applied, entry.first);
  });
}

}  // namespace

bool ResizeUnderWay(const kube::ResizedPod& pod,
                    const std::map<std::string, ComputedResources>& computed) {
  if (pod.resize == ResizeState::kInProgress) return true;
  // 1.34+: the kubelet has not yet observed the pod's newest spec.
  if (pod.observed_generation >= 0 && pod.generation > 0) {
    return pod.observed_generation < pod.generation;
  }
  for (const auto& [name, wanted] : computed) {
    const kube::ContainerResources* asked =
        kube::FindContainer(pod.containers, name);
    const kube::ContainerResources* applied =
        kube::FindContainer(pod.applied, name);
    if (asked == nullptr || applied == nullptr) continue;
    if (SideDiffers(wanted.requests, asked->requests, applied->requests) ||
        SideDiffers(wanted.limits, asked->limits, applied->limits)) {
      return true;
    }
  }
  return false;
}

InPlacePlan PlanInPlace(
    const std::map<std::string, ComputedResources>& computed,
    const std::vector<kube::ResizedPod>& pods, const ResizePolicy& policy,
    const DecreaseHistory& history, TimePoint now) {
  InPlacePlan plan;
  std::vector<const kube::ResizedPod*> sizable;
  for (const kube::ResizedPod& pod : pods) {
    if (Sizable(pod)) sizable.push_back(&pod);
  }
  std::sort(sizable.begin(), sizable.end(),
            [](const auto* a, const auto* b) { return a->name < b->name; });
  for (const kube::ResizedPod* pod : sizable) {
    if (Refused(pod->resize)) {
      plan.step = InPlacePlan::Step::kFallBack;
      plan.pod = pod->name;
      plan.state = pod->resize;
      plan.message = pod->resize_message;
      return plan;
    }
  }
  for (const kube::ResizedPod* pod : sizable) {
    if (pod->node_name.empty() || !ResizeUnderWay(*pod, computed)) continue;
    plan.step = InPlacePlan::Step::kWait;
    plan.pod = pod->name;
    return plan;
  }
  for (const kube::ResizedPod* pod : sizable) {
    ResizePlan one =
        PlanResize(computed, pod->containers, policy, history, now);
    plan.history.insert(one.history.begin(), one.history.end());
    for (std::string& held : one.held) {
      if (std::find(plan.held.begin(), plan.held.end(), held) ==
          plan.held.end()) {
        plan.held.push_back(std::move(held));
      }
    }
    if (one.changes.empty()) continue;
    ++plan.pods_to_resize;
    if (plan.step == InPlacePlan::Step::kNothing) {
      plan.step = InPlacePlan::Step::kResize;
      plan.pod = pod->name;
      plan.uid = pod->uid;
      plan.resource_version = pod->resource_version;
      plan.changes = std::move(one.changes);
    }
  }
  return plan;
}

}  // namespace propscaler
