#include "nodescale/plan/simulation/node_bins.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {

std::vector<Bin> BinsFromNodes(const std::vector<NodeState>& nodes,
                               const PodList& pods) {
  std::vector<Bin> bins;
  bins.reserve(nodes.size());
  std::unordered_map<std::string_view, size_t> index;
  for (const NodeState& node : nodes) {
    index.emplace(node.name, bins.size());
    bins.push_back(Bin{&node.labels,
                       &node.taints,
                       node.allocatable,
                       {},
                       node.ready && !node.unschedulable,
                       &node.volume_limits});
  }
  for (const PodState& pod : pods) {
    if (pod.node_name.empty() || pod.terminated) continue;
    auto it = index.find(pod.node_name);
    if (it != index.end()) PlaceOnBin(pod, &bins[it->second]);
  }
  return bins;
}

Bin BinFromTemplate(const NodeTemplate& node_template, const Resources& free,
                    const VolumeLimits* volume_limits) {
  return Bin{&node_template.labels, &node_template.taints, free, {}, true,
             volume_limits};
}

bool BinAccepts(const Bin& bin, const PodState& pod) {
  return bin.accepts_pods && Fits(pod.requests, bin.free) &&
         CheckNodeConstraints(pod, *bin.labels, *bin.taints) == Unfit::kNone &&
         AntiAffinityAllows(pod, bin.pods) && HostPortsFree(pod, bin.pods) &&
         InlineDisksFree(pod, bin.pods) &&
         (bin.volume_limits == nullptr ||
          AttachLimitsAllow(pod, bin.pods, *bin.volume_limits));
}

void PlaceOnBin(const PodState& pod, Bin* bin) {
  bin->free -= pod.requests;
  bin->pods.push_back(&pod);
}

void RemoveFromBin(const PodState& pod, Bin* bin) {
  auto it = std::find(bin->pods.begin(), bin->pods.end(), &pod);
  if (it == bin->pods.end()) return;
  bin->pods.erase(it);
  bin->free += pod.requests;
}

}  // namespace propscaler::nodescale
