#include "nodescale/plan/simulation/estimator.h"

#include <algorithm>
#include <numeric>

#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {
namespace {

struct NewNode {
  Resources free;
  std::vector<const PodState*> pods;  // kept only when anti-affinity matters
  size_t topology_node = 0;           // when topology matters
};

// Finds the first new node with room in O(log n) typical time: a tree over
// the nodes keeps each range's largest free cpu, memory and pod slots, and
// the search skips ranges that cannot hold the pod. Without it, first fit
// rescans every half-full node for every pod.
class FirstFitIndex {
 public:
  void Reserve(size_t nodes) {
    if (nodes > leaves_) Grow(nodes);
  }

  void Set(size_t node, const Resources& free) {
    if (node >= leaves_) Grow(std::max<size_t>(2 * leaves_, node + 1));
    size_t i = leaves_ + node;
    Store(i, free.cpu_millis, free.memory_bytes, free.pods);
    for (i /= 2; i >= 1; i /= 2) {
      Store(i, std::max(cpu_[2 * i], cpu_[2 * i + 1]),
            std::max(memory_[2 * i], memory_[2 * i + 1]),
            std::max(pods_[2 * i], pods_[2 * i + 1]));
    }
  }

  // The first node at or after `from` (and below `count`) for which
  // `has_room` holds, or `count`.
  template <typename HasRoomFn>
  size_t FindFirst(size_t from, size_t count, const Resources& request,
                   const HasRoomFn& has_room) const {
    if (leaves_ == 0) return count;
    const size_t found = Search(1, 0, leaves_, from, count, request, has_room);
    return found == kNone ? count : found;
  }

 private:
  static constexpr size_t kNone = SIZE_MAX;

  void Store(size_t i, int64_t cpu, int64_t memory, int64_t pods) {
    cpu_[i] = cpu;
    memory_[i] = memory;
    pods_[i] = pods;
  }

  void Grow(size_t at_least) {
    size_t leaves = 1;
    while (leaves < at_least) leaves *= 2;
    std::vector<int64_t> cpu(2 * leaves, -1), memory(2 * leaves, -1),
        pods(2 * leaves, -1);
    for (size_t n = 0; n < leaves_; ++n) {
      cpu[leaves + n] = cpu_[leaves_ + n];
      memory[leaves + n] = memory_[leaves_ + n];
      pods[leaves + n] = pods_[leaves_ + n];
    }
    for (size_t i = leaves - 1; i >= 1; --i) {
      cpu[i] = std::max(cpu[2 * i], cpu[2 * i + 1]);
      memory[i] = std::max(memory[2 * i], memory[2 * i + 1]);
      pods[i] = std::max(pods[2 * i], pods[2 * i + 1]);
    }
    cpu_.swap(cpu);
    memory_.swap(memory);
    pods_.swap(pods);
    leaves_ = leaves;
  }

  template <typename HasRoomFn>
  size_t Search(size_t i, size_t lo, size_t hi, size_t from, size_t count,
                const Resources& request, const HasRoomFn& has_room) const {
    if (hi <= from || lo >= count) return kNone;
    if (cpu_[i] < request.cpu_millis || memory_[i] < request.memory_bytes ||
        pods_[i] < request.pods) {
      return kNone;
    }
    if (hi - lo == 1) return has_room(lo) ? lo : kNone;
    const size_t mid = (lo + hi) / 2;
    const size_t left = Search(2 * i, lo, mid, from, count, request, has_room);
    if (left != kNone) return left;
    return Search(2 * i + 1, mid, hi, from, count, request, has_room);
  }

  size_t leaves_ = 0;
  std::vector<int64_t> cpu_, memory_, pods_;
};

bool HasRoom(const NewNode& node, const PodState& pod, bool track_pods,
             const Topology* topology, const VolumeLimits* volume_limits) {
  if (!Fits(pod.requests, node.free)) return false;
  if (!track_pods) return true;
  if (!HostPortsFree(pod, node.pods) || !InlineDisksFree(pod, node.pods)) {
    return false;
  }
  if (volume_limits != nullptr &&
      !AttachLimitsAllow(pod, node.pods, *volume_limits)) {
    return false;
  }
  // The cluster's topology counts the node's pods by each anti-affinity
  // term's key, as kube-scheduler does; the node's own list is the check
  // only without it.
  if (topology != nullptr) return topology->Allows(pod, node.topology_node);
  return AntiAffinityAllows(pod, node.pods);
}

// The cluster's topology for the estimate to place into, when some pod is
// constrained by it.
Topology* TopologyFor(const std::vector<PodCount>& pods,
                      const EstimateTopology& topology) {
  if (topology.cluster == nullptr) return nullptr;
  if (std::none_of(pods.begin(), pods.end(), [&](const PodCount& p) {
        return topology.cluster->Matters(*p.pod);
      })) {
    return nullptr;
  }
  return topology.cluster;
}

std::vector<size_t> PackingOrder(const std::vector<PodCount>& pods,
                                 const Resources& allocatable) {
  std::vector<double> score(pods.size());
  for (size_t i = 0; i < pods.size(); ++i) {
    score[i] = PackingScore(pods[i].pod->requests, allocatable);
  }
  std::vector<size_t> order(pods.size());
  std::iota(order.begin(), order.end(), 0);
  if (std::is_sorted(score.begin(), score.end(), std::greater<>())) {
    return order;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return score[a] > score[b]; });
  return order;
}

// First-fit of one entry's copies; each node takes as many as fit at once
// (one at a time with anti-affinity or host ports, whose checks see the
// copies placed).
class Packer {
 public:
  Packer(const std::vector<PodCount>& pods, const Resources& free_per_node,
         int64_t max_nodes, const EstimateTopology& topology,
         const VolumeLimits* volume_limits, Estimate* estimate)
      : free_per_node_(free_per_node),
        max_nodes_(max_nodes),
        estimate_(estimate),
        topology_(TopologyFor(pods, topology)),
        first_new_node_(topology_ != nullptr ? topology_->node_count() : 0),
        node_labels_(topology.node_labels),
        volume_limits_(volume_limits == nullptr || volume_limits->empty()
                           ? nullptr
                           : volume_limits),
        track_pods_(
            topology_ != nullptr ||
            std::any_of(pods.begin(), pods.end(), [&](const PodCount& p) {
              return !p.pod->anti_affinity.empty() ||
                     !p.pod->host_ports.empty() ||
                     !p.pod->inline_disks.empty() ||
                     (volume_limits_ != nullptr &&
                      !p.pod->attached_volumes.empty());
            })) {}

  // Takes the estimate's pods and nodes back out of the cluster's topology.
  ~Packer() {
    if (topology_ == nullptr) return;
    for (auto it = placed_.rbegin(); it != placed_.rend(); ++it) {
      topology_->Remove(*it->first, it->second);
    }
    while (topology_->node_count() > first_new_node_) {
      topology_->RemoveLastNode();
    }
  }
  Packer(const Packer&) = delete;
  Packer& operator=(const Packer&) = delete;

  void Place(size_t index, const PodCount& entry, std::vector<Placement>* out) {
    const PodState& pod = *entry.pod;
    const Topology* topology = topology_;
    // An entry shaped like the previous one cannot fit where that one did
    // not.
    size_t node = 0;
    if (!track_pods_ && previous_ != nullptr &&
        previous_->requests == pod.requests) {
      node = previous_node_;
    }
    int64_t left = entry.count;
    while (left > 0) {
      node = index_.FindFirst(node, nodes_.size(), pod.requests, [&](size_t n) {
        return HasRoom(nodes_[n], pod, track_pods_, topology, volume_limits_);
      });
      if (node == nodes_.size() && !OpenNode(pod)) return;
      const int64_t copies =
          track_pods_
              ? 1
              : std::min(left, MaxCopies(pod.requests, nodes_[node].free));
      SubtractTimes(pod.requests, copies, &nodes_[node].free);
      index_.Set(node, nodes_[node].free);
      if (track_pods_) nodes_[node].pods.push_back(&pod);
      if (topology_ != nullptr) {
        topology_->Place(pod, nodes_[node].topology_node);
        placed_.emplace_back(&pod, nodes_[node].topology_node);
      }
      AddPlacement(index, static_cast<int64_t>(node), copies, out);
      left -= copies;
      previous_ = &pod;
      previous_node_ = node;
    }
  }

  std::vector<NewNode>& nodes() { return nodes_; }

 private:
  // A new node for `pod`, unless the limit is reached or the pod's topology
  // constraints or its volumes reject even an empty one (a zone already at
  // its skew, more volumes than a node attaches): then no copy of it can be
  // placed.
  bool OpenNode(const PodState& pod) {
    if (static_cast<int64_t>(nodes_.size()) >= max_nodes_) {
      estimate_->stopped_at_max_nodes = true;
      return false;
    }
    if (volume_limits_ != nullptr &&
        !AttachLimitsAllow(pod, {}, *volume_limits_)) {
      return false;
    }
    NewNode node{free_per_node_, {}, 0};
    if (topology_ != nullptr) {
      node.topology_node = topology_->AddNode(node_labels_);
      if (!topology_->Allows(pod, node.topology_node)) {
        topology_->RemoveLastNode();
        return false;
      }
    }
    nodes_.push_back(std::move(node));
    return true;
  }

  static void AddPlacement(size_t entry, int64_t node, int64_t copies,
                           std::vector<Placement>* out) {
    if (!out->empty() && out->back().entry == entry &&
        out->back().node == node) {
      out->back().count += copies;
    } else {
      out->push_back({entry, node, copies});
    }
  }

  const Resources& free_per_node_;
  const int64_t max_nodes_;
  Estimate* estimate_;
  Topology* const topology_;  // the cluster's, or null
  const size_t first_new_node_;
  std::vector<std::pair<const PodState*, size_t>> placed_;  // pod, node
  const Labels* node_labels_;
  const VolumeLimits* volume_limits_;  // null: none
  const bool track_pods_;
  std::vector<NewNode> nodes_;
  FirstFitIndex index_;
  const PodState* previous_ = nullptr;
  size_t previous_node_ = 0;
};

}  // namespace

double PackingScore(const Resources& requests, const Resources& allocatable) {
  double score = 0;
  if (allocatable.cpu_millis > 0) {
    score += static_cast<double>(requests.cpu_millis) /
             static_cast<double>(allocatable.cpu_millis);
  }
  if (allocatable.memory_bytes > 0) {
    score += static_cast<double>(requests.memory_bytes) /
             static_cast<double>(allocatable.memory_bytes);
  }
  return score;
}

Estimate EstimateNewNodes(const std::vector<PodCount>& pods,
                          const Resources& free_per_node,
                          const Resources& allocatable, int64_t max_nodes,
                          const EstimateTopology& topology,
                          const VolumeLimits* volume_limits) {
  Estimate estimate;
  const std::vector<size_t> order = PackingOrder(pods, allocatable);
  Packer packer(pods, free_per_node, max_nodes, topology, volume_limits,
                &estimate);
  for (size_t i : order) {
    if (!Fits(pods[i].pod->requests, free_per_node)) {
      estimate.some_pod_too_big = true;
      continue;
    }
    packer.Place(i, pods[i], &estimate.placements);
  }
  estimate.node_count = static_cast<int64_t>(packer.nodes().size());
  return estimate;
}

PodEstimate EstimateNewNodes(const std::vector<const PodState*>& pods,
                             const Resources& free_per_node,
                             const Resources& allocatable, int64_t max_nodes,
                             const EstimateTopology& topology,
                             const VolumeLimits* volume_limits) {
  std::vector<PodCount> entries;
  for (const PodState* pod : pods) entries.push_back({pod, 1});
  Estimate estimate = EstimateNewNodes(entries, free_per_node, allocatable,
                                       max_nodes, topology, volume_limits);
  PodEstimate out{estimate.node_count, std::vector<int64_t>(pods.size(), -1),
                  estimate.stopped_at_max_nodes, estimate.some_pod_too_big};
  for (const Placement& p : estimate.placements) {
    out.node_of_pod[p.entry] = p.node;
  }
  return out;
}

}  // namespace propscaler::nodescale
