#include "nodescale/plan/disruption/disruption_simulation.h"

#include <algorithm>
#include <unordered_map>

#include "nodescale/plan/disruption/disruption_cost.h"
#include "nodescale/plan/simulation/estimator.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {

const NodePool& PoolOf(const DisruptionInput& input, std::string_view group) {
  static const NodePool kDefault{std::string(nodescale::kDefaultPoolName)};
  std::string_view pool_name = nodescale::kDefaultPoolName;
  for (const NodeGroup& g : input.groups) {
    if (g.name == group && !g.pool.empty()) pool_name = g.pool;
  }
  for (const NodePool& pool : input.pools) {
    if (pool.name == pool_name) return pool;
  }
  return kDefault;
}

double PriceOf(const NodeGroup& group) { return group.price.value_or(0.0); }

DisruptionSimulator::DisruptionSimulator(const DisruptionInput& input)
    : input_(input),
      placement_(input.snapshot->nodes, input.snapshot->pods),
      node_group_(input.snapshot->nodes.size(), nullptr),
      node_pool_(input.snapshot->nodes.size(), nullptr),
      in_window_(input.snapshot->nodes.size(), false),
      gone_(input.snapshot->nodes.size(), false) {
  std::unordered_map<std::string_view, const NodeGroup*> groups;
  for (const NodeGroup& group : input.groups) groups[group.name] = &group;
  std::unordered_map<std::string_view, std::vector<const NodeState*>> members;
  const std::vector<NodeState>& nodes = input.snapshot->nodes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    auto found = groups.find(input.snapshot->GroupOf(i));
    if (found != groups.end()) {
      node_group_[i] = found->second;
      node_pool_[i] = &PoolOf(input, found->first);
      members[found->first].push_back(&nodes[i]);
      // Never and 0s never hold a node back.
      const std::optional<Duration>& after = node_pool_[i]->consolidate_after;
      in_window_[i] = after && *after > Duration(0) &&
                      input.now - input.life[i].last_pod_event < *after;
    }
    if (input.life[i].deleting) placement_.bins()[i].accepts_pods = false;
  }
  const std::vector<const PodState*> daemonsets =
      OnePodPerDaemonSet(input.snapshot->pods);
  for (const NodeGroup& group : input.groups) {
    // A new node is made from the group's declared template when it has
    // one: a drifted node is no model of its replacement.
    std::optional<NodeTemplate> shape = DeclaredTemplate(group, input.taints);
    std::optional<ChosenTemplate> chosen;
    if (!shape || input.csi_node_aware_scheduling) {
      chosen =
          ChooseTemplate(group, members[group.name], nullptr, input.taints);
    }
    if (!shape && chosen) shape = chosen->node;
    if (!shape) continue;
    // Its attach limits, though, are known only from a live node.
    if (chosen && shape->volume_limits.empty()) {
      shape->volume_limits = chosen->node.volume_limits;
    }
    shapes_.push_back({&group, *shape, {}});
    shapes_.back().free = FreeOnNewNode(shapes_.back().node, daemonsets);
  }
  // The pending pods land first, where the scheduler would put them.
  placement_.PlacePending(PendingPods(input.snapshot->pods));
}

SimulationResult DisruptionSimulator::Simulate(
    const std::vector<size_t>& candidates, bool gate_destinations,
    int64_t max_new_nodes) {
  // A removed node stays in the topology as an empty ghost, as in Cluster
  // Autoscaler's simulation: its zone is still a domain for spreading, so
  // its pods do not all crowd into the other zones.
  std::vector<std::pair<const PodState*, size_t>> moving_from;
  for (size_t node : candidates) {
    gone_[node] = true;
    for (const PodState* pod : placement_.bins()[node].pods) {
      if (IsReschedulable(*pod)) moving_from.emplace_back(pod, node);
    }
  }
  std::vector<const PodState*> moving;
  for (auto& [pod, node] : moving_from) {
    if (placement_.use_topology()) placement_.topology().Remove(*pod, node);
    moving.push_back(pod);
  }
  // Largest first, as a scheduler packing them would.
  std::stable_sort(moving.begin(), moving.end(),
                   [](const PodState* a, const PodState* b) {
                     return a->requests.cpu_millis > b->requests.cpu_millis;
                   });
  std::vector<std::pair<const PodState*, size_t>> placed;
  std::vector<const PodState*> left;
  placement_.RestartNextFit();
  const auto usable = [&](size_t node) {
    return !gone_[node] && !(gate_destinations && in_window_[node]);
  };
  for (const PodState* pod : moving) {
    if (std::optional<size_t> node = placement_.NextFit(*pod, usable)) {
      placement_.Place(*pod, *node);
      placed.emplace_back(pod, *node);
    } else {
      left.push_back(pod);
    }
  }
  SimulationResult result;
  if (left.empty()) {
    result.ok = true;
  } else if (max_new_nodes > 0) {
    result.options = NewNodeOptions(left, max_new_nodes);
    result.ok = !result.options.empty();
    if (!result.ok) {
      result.failure =
          "pod " + left.front()->Key() +
          " would fit neither another node nor " +
          (max_new_nodes == 1 ? "one new node" : "new nodes of one group");
    }
  } else {
    result.failure = "pod " + left.front()->Key() + " fits on no other node";
  }
  for (auto& [pod, node] : placed) placement_.Remove(*pod, node);
  for (auto& [pod, node] : moving_from) {
    if (placement_.use_topology()) placement_.topology().Place(*pod, node);
  }
  for (size_t node : candidates) gone_[node] = false;
  return result;
}

std::vector<NewNodes> DisruptionSimulator::NewNodeOptions(
    const std::vector<const PodState*>& pods, int64_t max_new_nodes) const {
  std::vector<NewNodes> options;
  for (const GroupShape& shape : shapes_) {
    const NodeGroup& group = *shape.group;
    const int64_t room = group.max_size - group.target_size;
    if (room <= 0 || input_.backed_off_groups.contains(group.name)) continue;
    const bool admitted =
        std::all_of(pods.begin(), pods.end(), [&](const PodState* pod) {
          return CheckNodeConstraints(*pod, shape.node.labels,
                                      shape.node.taints) == Unfit::kNone;
        });
    if (!admitted) continue;
    const EstimateTopology topology =
        placement_.use_topology()
            ? EstimateTopology{&placement_.topology(), &shape.node.labels}
            : EstimateTopology{};
    const VolumeLimits* limits =
        NewNodeVolumeLimits(shape.node, input_.csi_node_aware_scheduling);
    const PodEstimate estimate =
        EstimateNewNodes(pods, shape.free, shape.node.allocatable,
                         std::min(room, max_new_nodes), topology, limits);
    // A pod left out (its topology or volumes reject even an empty node)
    // would have nowhere to go.
    if (estimate.stopped_at_max_nodes || estimate.some_pod_too_big ||
        estimate.node_count == 0 ||
        std::find(estimate.node_of_pod.begin(), estimate.node_of_pod.end(),
                  -1) != estimate.node_of_pod.end()) {
      continue;
    }
    options.push_back(
        {group.name, estimate.node_count,
         PriceOf(group) * static_cast<double>(estimate.node_count)});
  }
  std::sort(options.begin(), options.end(),
            [](const NewNodes& a, const NewNodes& b) {
              if (a.price_per_hour != b.price_per_hour) {
                return a.price_per_hour < b.price_per_hour;
              }
              return a.group < b.group;
            });
  return options;
}

}  // namespace propscaler::nodescale
