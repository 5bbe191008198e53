#include "checks/plan_checks.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "checks/final_placement.h"
#include "checks/node_count_bound.h"
#include "nodescale/plan/simulation/bin_placement.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/topology.h"

namespace propscaler::bench {
namespace {

using nodescale::BinPlacement;
using nodescale::ClusterSnapshot;
using nodescale::DisruptionCommand;
using nodescale::DisruptionInput;
using nodescale::DisruptionMethod;
using nodescale::DisruptionPlan;
using nodescale::NodeGroup;
using nodescale::PodState;
using nodescale::Resources;
using nodescale::ScaleUpPlan;

// New nodes as the checks add them: a group's template and what an empty
// one offers. Kept in a deque so bins may point at the labels.
struct NewNodeShape {
  nodescale::NodeTemplate node;
  Resources free;
};

class GroupShapes {
 public:
  GroupShapes(const ClusterSnapshot& snapshot,
              const std::vector<NodeGroup>& groups)
      : daemonset_pods_(nodescale::OnePodPerDaemonSet(snapshot.pods)) {
    std::map<std::string, std::vector<const nodescale::NodeState*>, std::less<>>
        members;
    for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
      members[std::string(snapshot.GroupOf(i))].push_back(&snapshot.nodes[i]);
    }
    for (const NodeGroup& group : groups) {
      registered_[group.name] =
          static_cast<int64_t>(members[group.name].size());
      std::optional<nodescale::ChosenTemplate> chosen =
          nodescale::ChooseTemplate(group, members[group.name], nullptr, {});
      if (!chosen) continue;
      Resources free = nodescale::FreeOnNewNode(chosen->node, daemonset_pods_);
      shapes_.push_back({std::move(chosen->node), free});
      by_group_[group.name] = &shapes_.back();
    }
  }

  const NewNodeShape* Find(std::string_view group) const {
    auto found = by_group_.find(std::string(group));
    return found == by_group_.end() ? nullptr : found->second;
  }
  // The most any group's new node offers, resource by resource.
  Resources Largest() const {
    Resources most;
    for (const NewNodeShape& shape : shapes_) {
      most.cpu_millis = std::max(most.cpu_millis, shape.free.cpu_millis);
      most.memory_bytes = std::max(most.memory_bytes, shape.free.memory_bytes);
      most.pods = std::max(most.pods, shape.free.pods);
    }
    return most;
  }
  int64_t Registered(const std::string& group) const {
    auto found = registered_.find(group);
    return found == registered_.end() ? 0 : found->second;
  }

 private:
  std::vector<const PodState*> daemonset_pods_;
  std::deque<NewNodeShape> shapes_;
  std::map<std::string, const NewNodeShape*> by_group_;
  std::map<std::string, int64_t> registered_;
};

size_t AddNewNode(const NewNodeShape& shape, BinPlacement* placement) {
  return placement->AddBin(nodescale::BinFromTemplate(shape.node, shape.free));
}

// The first of [first, last) that takes the pod, placed there.
bool PlaceWithin(const PodState& pod, size_t first, size_t last,
                 BinPlacement* placement) {
  for (size_t bin = first; bin < last; ++bin) {
    if (!placement->Accepts(bin, pod)) continue;
    placement->Place(pod, bin);
    return true;
  }
  return false;
}
bool PlaceWithin(const PodState& pod, size_t first, size_t last,
                 std::vector<nodescale::Bin>* bins) {
  for (size_t bin = first; bin < last; ++bin) {
    if (!nodescale::BinAccepts((*bins)[bin], pod)) continue;
    nodescale::PlaceOnBin(pod, &(*bins)[bin]);
    return true;
  }
  return false;
}

class ScaleUpCheck {
 public:
  ScaleUpCheck(const ClusterSnapshot& snapshot,
               const std::vector<NodeGroup>& groups)
      : groups_(groups),
        shapes_(snapshot, groups),
        bins_(nodescale::BinsFromNodes(snapshot.nodes, snapshot.pods)) {
    for (const PodState* pod : nodescale::PendingPods(snapshot.pods)) {
      pending_[pod->Key()] = pod;
    }
    for (const NodeGroup& group : groups) {
      const NewNodeShape* shape = shapes_.Find(group.name);
      const int64_t requested =
          group.target_size - shapes_.Registered(group.name);
      for (int64_t i = 0; shape != nullptr && i < requested; ++i) {
        AddNewNode(*shape);
      }
    }
  }

  Failures Run(const ScaleUpPlan& plan) {
    for (const std::string& key : plan.fit_existing) {
      const PodState* pod = Take(key, "fitting existing nodes");
      if (pod != nullptr && !PlaceWithin(*pod, 0, bins_.size(), &bins_)) {
        failures_.push_back("pod " + key +
                            " was left to existing or requested nodes, but "
                            "none of them takes it");
      }
    }
    for (const nodescale::GroupIncrease& increase : plan.increases) {
      CheckIncrease(increase);
      grown_[increase.group] += increase.delta;
    }
    CheckMaxSizes();
    CheckLeftOver(plan);
    return std::move(failures_);
  }

 private:
  size_t AddNewNode(const NewNodeShape& shape) {
    bins_.push_back(nodescale::BinFromTemplate(shape.node, shape.free));
    return bins_.size() - 1;
  }

  const PodState* Take(const std::string& key, std::string_view as) {
    auto found = pending_.find(key);
    if (found == pending_.end()) {
      failures_.push_back("pod " + key + " is planned (" + std::string(as) +
                          ") but is not a pending pod of the snapshot");
      return nullptr;
    }
    if (!planned_.insert(key).second) {
      failures_.push_back("pod " + key + " is planned twice");
      return nullptr;
    }
    return found->second;
  }

  void CheckIncrease(const nodescale::GroupIncrease& increase) {
    const NewNodeShape* shape = shapes_.Find(increase.group);
    const std::string what = "the increase of " + increase.group + " by " +
                             std::to_string(increase.delta);
    if (shape == nullptr) {
      failures_.push_back(what + " names a group with no template");
      return;
    }
    if (increase.delta <= 0) failures_.push_back(what + " is not positive");
    if (increase.pod_nodes.size() != increase.pods.size()) {
      failures_.push_back(
          what + " puts " + std::to_string(increase.pods.size()) + " pods on " +
          std::to_string(increase.pod_nodes.size()) + " node indexes");
      return;
    }
    const size_t first = bins_.size();
    for (int64_t i = 0; i < increase.delta; ++i) AddNewNode(*shape);
    for (size_t i = 0; i < increase.pods.size(); ++i) {
      const PodState* pod = Take(increase.pods[i], what);
      if (pod == nullptr) continue;
      const int64_t node = increase.pod_nodes[i];
      if (node < 0 || node >= increase.delta) {
        failures_.push_back("pod " + pod->Key() + " of " + what +
                            " goes to new node " + std::to_string(node) +
                            ", which the increase does not have");
        continue;
      }
      nodescale::Bin& bin = bins_[first + static_cast<size_t>(node)];
      if (!nodescale::BinAccepts(bin, *pod)) {
        failures_.push_back(
            "pod " + pod->Key() + " of " + what + " does not fit new node " +
            std::to_string(node) +
            (nodescale::Fits(pod->requests, bin.free)
                 ? std::string(": its constraints refuse it")
                 : ": insufficient " +
                       nodescale::FirstShortResource(pod->requests, bin.free)));
        continue;
      }
      nodescale::PlaceOnBin(*pod, &bin);
    }
  }

  void CheckMaxSizes() {
    for (const NodeGroup& group : groups_) {
      const int64_t size = group.target_size + grown_[group.name];
      if (size > group.max_size) {
        failures_.push_back("group " + group.name + " grows to " +
                            std::to_string(size) + ", past its max size " +
                            std::to_string(group.max_size));
      }
    }
  }

  // Each pod left over tried on an empty new node of every group with room:
  // one that fits was a pod the plan should have taken. Pods with
  // constraints between pods across nodes are not judged here: whether a
  // spread or an affinity admits them depends on the order of placements.
  void CheckLeftOver(const ScaleUpPlan& plan) {
    std::vector<std::pair<nodescale::Bin, const NodeGroup*>> spare;
    for (const NodeGroup& group : groups_) {
      const NewNodeShape* shape = shapes_.Find(group.name);
      if (shape == nullptr ||
          group.target_size + grown_[group.name] >= group.max_size) {
        continue;
      }
      spare.emplace_back(nodescale::BinFromTemplate(shape->node, shape->free),
                         &group);
    }
    for (const nodescale::UnschedulablePod& left : plan.unschedulable) {
      const PodState* pod = Take(left.pod, "unschedulable");
      if (pod == nullptr || nodescale::HasTopologyConstraints(*pod)) continue;
      for (const auto& [bin, group] : spare) {
        if (!nodescale::BinAccepts(bin, *pod)) continue;
        failures_.push_back(
            "pod " + left.pod + " is left unschedulable, but a new node of " +
            group->name + " (size " +
            std::to_string(group->target_size + grown_[group->name]) + " of " +
            std::to_string(group->max_size) + ") would take it");
        break;
      }
    }
    for (const auto& [key, pod] : pending_) {
      if (!planned_.contains(key)) {
        failures_.push_back("pending pod " + key + " is not in the plan");
      }
    }
  }

  const std::vector<NodeGroup>& groups_;
  GroupShapes shapes_;
  std::vector<nodescale::Bin> bins_;
  std::unordered_map<std::string, const PodState*> pending_;
  std::set<std::string> planned_;
  std::map<std::string, int64_t> grown_;
  Failures failures_;
};

// Each snapshot pod's index by its "namespace/name".
using PodIndex = std::unordered_map<std::string, size_t>;

PodIndex IndexPods(const ClusterSnapshot& snapshot) {
  PodIndex out;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    out[snapshot.pods[i].Key()] = i;
  }
  return out;
}

// The pods of `keys` the snapshot has.
std::vector<const PodState*> PodsOf(const std::vector<std::string>& keys,
                                    const ClusterSnapshot& snapshot,
                                    const PodIndex& index) {
  std::vector<const PodState*> out;
  for (const std::string& key : keys) {
    if (auto found = index.find(key); found != index.end()) {
      out.push_back(&snapshot.pods[found->second]);
    }
  }
  return out;
}

// The existing nodes, then each increase's new nodes (named
// "<group>/new-<i>", labelled as its template); each increase's pods on
// the node it names. The pods fit on existing or requested nodes are on no
// node the plan names (kNone), yet `planned`, as the increases' are.
Hosts HostsOf(const ClusterSnapshot& snapshot, const PodIndex& index,
              const GroupShapes& shapes, const ScaleUpPlan& plan,
              std::vector<bool>* planned) {
  Hosts hosts = ExistingHosts(snapshot);
  planned->assign(snapshot.pods.size(), false);
  for (const std::string& key : plan.fit_existing) {
    if (auto found = index.find(key); found != index.end()) {
      (*planned)[found->second] = true;
    }
  }
  for (const nodescale::GroupIncrease& increase : plan.increases) {
    const NewNodeShape* shape = shapes.Find(increase.group);
    if (shape == nullptr || increase.pod_nodes.size() != increase.pods.size()) {
      continue;  // the increase's own check says so
    }
    const size_t first = hosts.names.size();
    for (int64_t n = 0; n < increase.delta; ++n) {
      hosts.Add(&shape->node.labels,
                increase.group + "/new-" + std::to_string(n));
    }
    for (size_t p = 0; p < increase.pods.size(); ++p) {
      auto found = index.find(increase.pods[p]);
      const int64_t node = increase.pod_nodes[p];
      if (found == index.end() || node < 0 || node >= increase.delta) continue;
      (*planned)[found->second] = true;
      hosts.of_pod[found->second] = first + static_cast<size_t>(node);
    }
  }
  return hosts;
}

bool IsConsolidation(DisruptionMethod method) {
  return method == DisruptionMethod::kMultiNode ||
         method == DisruptionMethod::kSingleNode;
}

// Pods that leave with their node: DaemonSet and mirror pods do not.
bool MustMove(const PodState& pod) {
  return !pod.terminated && !nodescale::IsDaemonSetPod(pod) &&
         !nodescale::IsMirrorPod(pod);
}

std::string Blocker(const ClusterSnapshot& snapshot, const PodState& pod) {
  if (nodescale::AnnotationOf(pod.annotations, kube::kDoNotDisruptAnnotation) ==
      "true") {
    return "do-not-disrupt";
  }
  for (const nodescale::PdbState& pdb : snapshot.pdbs) {
    if (nodescale::PdbCovers(pdb, pod) &&
        (pdb.blocks_all || pdb.disruptions_allowed <= 0)) {
      return "PodDisruptionBudget " + pdb.namespace_ + "/" + pdb.name;
    }
  }
  return "";
}

// The pods that must leave the `removed` nodes, largest first, on the nodes
// that stay and any new nodes `add_nodes` adds, after the pending pods the
// scheduler would place: the ones no node takes.
std::vector<const PodState*> UnplacedMovedPods(
    const ClusterSnapshot& snapshot, const std::vector<size_t>& removed,
    const std::vector<const PodState*>& moved,
    const std::unordered_map<std::string_view, size_t>& node_index,
    const std::function<void(BinPlacement*)>& add_nodes) {
  BinPlacement placement(snapshot.nodes, snapshot.pods);
  for (size_t node : removed) {
    placement.bins()[node].accepts_pods = false;
    placement.SetGone(node, true);
  }
  for (const PodState* pod : moved) {
    placement.Remove(*pod, node_index.at(pod->node_name));
  }
  placement.PlacePending(nodescale::PendingPods(snapshot.pods));
  add_nodes(&placement);
  std::vector<const PodState*> pods = moved;
  std::stable_sort(pods.begin(), pods.end(),
                   [](const PodState* a, const PodState* b) {
                     return a->requests.cpu_millis > b->requests.cpu_millis;
                   });
  std::vector<const PodState*> unplaced;
  for (const PodState* pod : pods) {
    if (!PlaceWithin(*pod, 0, placement.bins().size(), &placement)) {
      unplaced.push_back(pod);
    }
  }
  return unplaced;
}

std::unordered_map<std::string_view, size_t> NodeIndex(
    const ClusterSnapshot& snapshot) {
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
    index[snapshot.nodes[i].name] = i;
  }
  return index;
}

class DisruptionCheck {
 public:
  DisruptionCheck(const DisruptionInput& input,
                  const DisruptionCommand& command)
      : input_(input),
        snapshot_(*input.snapshot),
        command_(command),
        what_(std::string(nodescale::DisruptionMethodName(command.method)) +
              " command"),
        shapes_(snapshot_, input.groups),
        node_index_(NodeIndex(snapshot_)) {}

  Failures Run(const DisruptionPlan& plan) {
    std::vector<size_t> removed = RemovedNodes();
    if (!failures_.empty()) return std::move(failures_);
    CheckPods(removed);
    CheckPlaces(removed);
    if (IsConsolidation(command_.method)) CheckSavings(removed);
    CheckBudgets(plan, removed);
    return std::move(failures_);
  }

 private:
  std::vector<size_t> RemovedNodes() {
    std::vector<size_t> removed;
    std::set<size_t> seen;
    if (command_.nodes.empty()) failures_.push_back(what_ + " has no node");
    for (const std::string& name : command_.nodes) {
      auto found = node_index_.find(name);
      if (found == node_index_.end()) {
        failures_.push_back(what_ + " names node " + name +
                            ", which the snapshot does not have");
      } else if (!seen.insert(found->second).second) {
        failures_.push_back(what_ + " names node " + name + " twice");
      } else if (found->second < input_.life.size() &&
                 input_.life[found->second].deleting) {
        failures_.push_back(what_ + " names node " + name +
                            ", which is already going");
      } else {
        removed.push_back(found->second);
      }
    }
    return removed;
  }

  void CheckPods(const std::vector<size_t>& removed) {
    const bool forceful = command_.method == DisruptionMethod::kExpiry;
    std::set<std::string_view> names;
    for (size_t node : removed) names.insert(snapshot_.nodes[node].name);
    for (const PodState& pod : snapshot_.pods) {
      if (!names.contains(pod.node_name) || !MustMove(pod)) continue;
      if (command_.method == DisruptionMethod::kEmptiness) {
        failures_.push_back(what_ + " takes node " + pod.node_name +
                            ", which is not empty: pod " + pod.Key());
      }
      moved_.push_back(&pod);
      if (forceful) continue;
      if (std::string blocker = Blocker(snapshot_, pod); !blocker.empty()) {
        failures_.push_back(what_ + " takes node " + pod.node_name +
                            " with pod " + pod.Key() + ", held by " + blocker);
      }
    }
  }

  // The pods that must move on the nodes that stay and the replacement.
  void CheckPlaces(const std::vector<size_t>& removed) {
    for (const PodState* pod :
         UnplacedMovedPods(snapshot_, removed, moved_, node_index_,
                           [this](BinPlacement* placement) {
                             if (command_.replacement)
                               AddReplacement(placement);
                           })) {
      failures_.push_back(what_ + " moves pod " + pod->Key() + " from node " +
                          pod->node_name + ", and no node left takes it");
    }
  }

  void AddReplacement(BinPlacement* placement) {
    const nodescale::NewNodes& replacement = *command_.replacement;
    const NewNodeShape* shape = shapes_.Find(replacement.group);
    if (shape == nullptr) {
      failures_.push_back(what_ + " replaces with group " + replacement.group +
                          ", which has no template");
      return;
    }
    for (int64_t i = 0; i < replacement.count; ++i) {
      AddNewNode(*shape, placement);
    }
  }

  void CheckSavings(const std::vector<size_t>& removed) {
    double saved = 0;
    for (size_t node : removed) {
      const NodeGroup* group = GroupNamed(snapshot_.GroupOf(node));
      if (group != nullptr) saved += nodescale::PriceOf(*group);
    }
    if (command_.replacement) saved -= command_.replacement->price_per_hour;
    if (saved <= 0) {
      failures_.push_back(what_ + " saves nothing: " + std::to_string(saved) +
                          " an hour");
    }
    if (std::abs(saved - command_.savings_per_hour) > 1e-6) {
      failures_.push_back(what_ + " states savings of " +
                          std::to_string(command_.savings_per_hour) +
                          " an hour; its nodes and replacement give " +
                          std::to_string(saved));
    }
  }

  void CheckBudgets(const DisruptionPlan& plan,
                    const std::vector<size_t>& removed) {
    if (command_.method == DisruptionMethod::kExpiry) return;
    std::map<std::string, int64_t> per_pool;
    for (size_t node : removed) {
      const NodeGroup* group = GroupNamed(snapshot_.GroupOf(node));
      if (group != nullptr) {
        ++per_pool[nodescale::PoolOf(input_, group->name).name];
      }
    }
    for (const auto& entry : per_pool) {
      // Named apart: a lambda may not capture a structured binding (C++17).
      const std::string& pool = entry.first;
      const int64_t count = entry.second;
      auto allowance = std::find_if(
          plan.allowances.begin(), plan.allowances.end(),
          [&](const nodescale::PoolAllowanceReport& report) {
            return report.pool == pool && report.reason == command_.reason;
          });
      if (allowance == plan.allowances.end()) {
        failures_.push_back(what_ + " takes " + std::to_string(count) +
                            " nodes of pool " + pool +
                            ", for which the plan counted no budget");
      } else if (count > allowance->allowed) {
        failures_.push_back(what_ + " takes " + std::to_string(count) +
                            " nodes of pool " + pool +
                            ", whose budget allows " +
                            std::to_string(allowance->allowed));
      }
    }
  }

  const NodeGroup* GroupNamed(std::string_view name) const {
    for (const NodeGroup& group : input_.groups) {
      if (group.name == name) return &group;
    }
    return nullptr;
  }

  const DisruptionInput& input_;
  const ClusterSnapshot& snapshot_;
  const DisruptionCommand& command_;
  const std::string what_;
  GroupShapes shapes_;
  std::unordered_map<std::string_view, size_t> node_index_;
  std::vector<const PodState*> moved_;
  Failures failures_;
};

// A scale-down plan: its nodes exist and are distinct, none of them is
// above the utilization threshold (an empty removal holds no pod that must
// move), and every pod that must leave them fits on the nodes that stay.
class ScaleDownCheck {
 public:
  ScaleDownCheck(const ClusterSnapshot& snapshot,
                 const std::vector<NodeGroup>& groups,
                 const nodescale::ScaleDownConfig& config)
      : snapshot_(snapshot),
        groups_(groups),
        config_(config),
        node_index_(NodeIndex(snapshot)) {
    for (const PodState& pod : snapshot_.pods) {
      if (!pod.node_name.empty()) pods_on_[pod.node_name].push_back(&pod);
    }
  }

  Failures Run(const nodescale::ScaleDownPlan& plan) {
    std::vector<size_t> removed;
    std::vector<const PodState*> moved;
    std::set<size_t> seen;
    for (const nodescale::NodeRemoval& removal : plan.removals) {
      auto found = node_index_.find(removal.node);
      if (found == node_index_.end()) {
        failures_.push_back("the plan removes node " + removal.node +
                            ", which the snapshot does not have");
        continue;
      }
      if (!seen.insert(found->second).second) {
        failures_.push_back("the plan removes node " + removal.node + " twice");
        continue;
      }
      removed.push_back(found->second);
      CheckRemoval(removal, found->second, &moved);
    }
    for (const PodState* pod : UnplacedMovedPods(
             snapshot_, removed, moved, node_index_, [](BinPlacement*) {})) {
      failures_.push_back("the plan moves pod " + pod->Key() + " from node " +
                          pod->node_name + ", and no node that stays takes it");
    }
    return std::move(failures_);
  }

 private:
  // The node's group's own threshold, else the flag's.
  double Threshold(size_t node) const {
    const NodeGroup* group =
        nodescale::FindGroup(groups_, snapshot_.GroupOf(node));
    return group != nullptr
               ? group->options.scale_down_utilization_threshold.value_or(
                     config_.utilization_threshold)
               : config_.utilization_threshold;
  }

  void CheckRemoval(const nodescale::NodeRemoval& removal, size_t index,
                    std::vector<const PodState*>* moved) {
    const nodescale::NodeState& node = snapshot_.nodes[index];
    const std::vector<const PodState*>& pods = pods_on_[node.name];
    const double utilization = nodescale::NodeUtilization(node, pods, config_);
    if (!removal.unready && utilization >= Threshold(index)) {
      failures_.push_back("the plan removes node " + node.name + " at " +
                          std::to_string(utilization) +
                          " utilization, not below the threshold " +
                          std::to_string(Threshold(index)));
    }
    for (const PodState* pod : pods) {
      if (!MustMove(*pod)) continue;
      if (removal.reason == nodescale::NodeRemoval::Reason::kEmpty) {
        failures_.push_back("the plan removes node " + node.name +
                            " as empty, but pod " + pod->Key() + " must move");
      }
      moved->push_back(pod);
    }
  }

  const ClusterSnapshot& snapshot_;
  const std::vector<NodeGroup>& groups_;
  const nodescale::ScaleDownConfig& config_;
  std::unordered_map<std::string_view, size_t> node_index_;
  std::unordered_map<std::string_view, std::vector<const PodState*>> pods_on_;
  Failures failures_;
};

}  // namespace

Failures CheckScaleDownPlan(const ClusterSnapshot& snapshot,
                            const std::vector<NodeGroup>& groups,
                            const nodescale::ScaleDownConfig& config,
                            const nodescale::ScaleDownPlan& plan) {
  return ScaleDownCheck(snapshot, groups, config).Run(plan);
}

Failures CheckScaleUpPlan(const ClusterSnapshot& snapshot,
                          const std::vector<NodeGroup>& groups,
                          const ScaleUpPlan& plan) {
  Failures failures = ScaleUpCheck(snapshot, groups).Run(plan);
  const GroupShapes shapes(snapshot, groups);
  const PodIndex index = IndexPods(snapshot);
  std::vector<bool> planned;
  const Hosts hosts = HostsOf(snapshot, index, shapes, plan, &planned);
  CheckAntiAffinities(snapshot, hosts, &failures);
  CheckAffinitiesAtTheEnd(snapshot, hosts, planned, &failures);
  for (const nodescale::GroupIncrease& increase : plan.increases) {
    const NewNodeShape* shape = shapes.Find(increase.group);
    if (shape == nullptr) continue;  // Run says so
    if (std::optional<std::string> miss = NodeCountMiss(
            increase.delta,
            NewNodesLowerBound(PodsOf(increase.pods, snapshot, index),
                               shape->free))) {
      failures.push_back("the increase of " + increase.group + ": " + *miss);
    }
  }
  return failures;
}

int64_t ScaleUpLowerBound(const ClusterSnapshot& snapshot,
                          const std::vector<NodeGroup>& groups,
                          const ScaleUpPlan& plan) {
  const PodIndex index = IndexPods(snapshot);
  std::vector<const PodState*> pods;
  for (const nodescale::GroupIncrease& increase : plan.increases) {
    const std::vector<const PodState*> its =
        PodsOf(increase.pods, snapshot, index);
    pods.insert(pods.end(), its.begin(), its.end());
  }
  return NewNodesLowerBound(pods, GroupShapes(snapshot, groups).Largest());
}

Failures CheckDisruptionCommand(const DisruptionInput& input,
                                const DisruptionPlan& plan,
                                const DisruptionCommand& command) {
  return DisruptionCheck(input, command).Run(plan);
}

std::string Summarize(const Failures& failures) {
  constexpr size_t kShown = 3;
  std::string line;
  for (size_t i = 0; i < failures.size() && i < kShown; ++i) {
    if (i > 0) line += "; ";
    line += failures[i];
  }
  if (failures.size() > kShown) {
    line += "; and " + std::to_string(failures.size() - kShown) + " more";
  }
  return line;
}

}  // namespace propscaler::bench
