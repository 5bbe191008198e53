#include "nodescale/plan/simulation/bin_placement.h"

#include "nodescale/plan/simulation/pod_classes.h"

namespace propscaler::nodescale {

std::vector<const PodState*> PendingPods(const PodList& pods) {
  std::vector<const PodState*> pending;
  for (const PodState& pod : pods) {
    if (IsPending(pod) && !IsDaemonSetPod(pod)) pending.push_back(&pod);
  }
  return pending;
}

BinPlacement::BinPlacement(const std::vector<NodeState>& nodes,
                           const PodList& pods)
    : bins_(BinsFromNodes(nodes, pods)),
      use_topology_(AnyInterPodConstraints(pods)) {
  if (!use_topology_) return;
  for (const Bin& bin : bins_) {
    const size_t node = topology_.AddNode(bin.labels);
    for (const PodState* pod : bin.pods) topology_.Place(*pod, node);
  }
}

size_t BinPlacement::AddBin(Bin bin) {
  bins_.push_back(std::move(bin));
  const size_t index = bins_.size() - 1;
  if (use_topology_) {
    topology_.AddNode(bins_[index].labels);
    for (const PodState* pod : bins_[index].pods) topology_.Place(*pod, index);
  }
  return index;
}

bool BinPlacement::Accepts(size_t bin, const PodState& pod) const {
  return Fits(bin, pod, Constrained(pod));
}

void BinPlacement::Place(const PodState& pod, size_t bin) {
  PlaceOnBin(pod, &bins_[bin]);
  if (use_topology_) topology_.Place(pod, bin);
}

void BinPlacement::Remove(const PodState& pod, size_t bin) {
  RemoveFromBin(pod, &bins_[bin]);
  if (use_topology_) topology_.Remove(pod, bin);
}

void BinPlacement::SetGone(size_t bin, bool gone) {
  if (use_topology_) topology_.SetNodeGone(bin, gone);
}

BinPlacement::PendingResult BinPlacement::PlacePending(
    const std::vector<const PodState*>& pods) {
  PendingResult result;
  if (pods.empty()) return result;
  const PodClasses classes = ClassifyPods(pods);
  // A pod cannot fit a bin an earlier pod of its class did not fit, unless
  // inter-pod constraints are involved: a pod placed elsewhere can raise
  // a spread's minimum or meet an affinity.
  std::vector<size_t> first_bin(classes.classes.size(), 0);
  for (size_t i = 0; i < pods.size(); ++i) {
    const PodState& pod = *pods[i];
    const bool constrained = Constrained(pod);
    size_t start = 0;
    size_t& bin = constrained ? start : first_bin[classes.class_of[i]];
    while (bin < bins_.size() && !Fits(bin, pod, constrained)) ++bin;
    if (bin < bins_.size()) {
      Place(pod, bin);
      result.placed.push_back(&pod);
    } else {
      result.left.push_back(&pod);
    }
  }
  return result;
}

}  // namespace propscaler::nodescale
