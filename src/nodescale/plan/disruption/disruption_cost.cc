#include "nodescale/plan/disruption/disruption_cost.h"

#include <algorithm>
#include <charconv>

#include "common/duration.h"
#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {
namespace {

std::string_view DoNotDisrupt(const Labels& annotations) {
  const std::string_view karpenter =
      AnnotationOf(annotations, kube::kDoNotDisruptAnnotation);
  return karpenter.empty()
             ? AnnotationOf(annotations, kube::kOwnDoNotDisruptAnnotation)
             : karpenter;
}

}  // namespace

double EvictionCost(const PodState& pod) {
  double cost = 1.0;
  const std::string_view text =
      AnnotationOf(*pod.annotations, kube::kPodDeletionCostAnnotation);
  int64_t deletion_cost = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), deletion_cost);
  if (!text.empty() && error == std::errc() &&
      end == text.data() + text.size()) {
    cost += static_cast<double>(deletion_cost) / static_cast<double>(1 << 27);
  }
  cost += static_cast<double>(pod.priority) / static_cast<double>(1 << 25);
  return std::clamp(cost, -10.0, 10.0);
}

bool IsReschedulable(const PodState& pod) {
  return !pod.terminated && !IsDaemonSetPod(pod) && !IsMirrorPod(pod);
}

double RescheduleCost(const std::vector<const PodState*>& pods_on_node) {
  double cost = 1.0;
  for (const PodState* pod : pods_on_node) {
    if (IsReschedulable(*pod)) cost += std::max(0.0, EvictionCost(*pod));
  }
  return cost;
}

std::optional<std::string> PodDisruptionBlocker(
    const PodState& pod, const std::vector<PdbState>& pdbs, TimePoint now) {
  if (pod.terminated) return std::nullopt;
  const std::string name = "pod " + pod.Key();
  const std::string_view dnd = DoNotDisrupt(*pod.annotations);
  if (dnd == "true") return name + " is annotated do-not-disrupt";
  if (!dnd.empty()) {
    Result<std::chrono::milliseconds> period =
        ParseDuration("do-not-disrupt", dnd);
    // Unset start time: the pod has not started, so it is within any period.
    if (period.ok() && period->count() > 0 &&
        (pod.start_time == TimePoint() || now - pod.start_time < *period)) {
      return name + " is annotated do-not-disrupt for " + std::string(dnd);
    }
  }
  if (AnnotationOf(*pod.annotations, kSafeToEvictAnnotation) == "false") {
    return name + " is annotated safe-to-evict: \"false\"";
  }
  if (!IsReschedulable(pod)) return std::nullopt;
  const PdbState* covering = nullptr;
  for (const PdbState& pdb : pdbs) {
    if (!PdbCovers(pdb, pod)) continue;
    if (covering != nullptr) {
      return name + " is covered by PodDisruptionBudgets " + covering->name +
             " and " + pdb.name + " (eviction supports only one)";
    }
    covering = &pdb;
  }
  if (covering != nullptr && covering->disruptions_allowed <= 0) {
    return name + ": PodDisruptionBudget " + covering->namespace_ + "/" +
           covering->name + " allows no disruption now";
  }
  return std::nullopt;
}

bool NodeOptsOut(const NodeState& node) {
  return DoNotDisrupt(node.annotations) == "true" ||
         AnnotationOf(node.annotations, kScaleDownDisabledAnnotation) == "true";
}

}  // namespace propscaler::nodescale
