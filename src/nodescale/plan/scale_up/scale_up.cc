#include "nodescale/plan/scale_up/scale_up.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "nodescale/plan/scale_up/balance.h"
#include "nodescale/plan/simulation/bin_placement.h"
#include "nodescale/plan/simulation/estimator.h"
#include "nodescale/plan/simulation/node_bins.h"
#include "nodescale/plan/simulation/pod_classes.h"
#include "nodescale/plan/simulation/predicates.h"
#include "nodescale/plan/simulation/topology.h"

namespace propscaler::nodescale {
namespace {

// One FFD estimate over the pods left of a packing kind's classes, capped
// at `cap` new nodes, with the totals an option needs.
struct SharedEstimate {
  int64_t cap = 0;
  Estimate estimate;
  std::vector<size_t> classes;  // pod class of each entry
  int64_t pod_count = 0;
  Resources requested;
};

// Groups that pack alike: with the same free space on a new node, the same
// allocatable (which orders the packing) and the same admitted pod classes,
// EstimateNewNodes is the same function of the pods left, so one estimate
// per cap serves them all (zonal copies of one instance type, say) until a
// class of theirs loses pods.
struct PackingKind {
  Resources free;
  Resources allocatable;
  const Labels* labels = nullptr;  // the template's, when topology matters
  // The template's attach limits, with --enable-csi-node-aware-scheduling.
  const VolumeLimits* volume_limits = nullptr;
  std::vector<size_t> fitting_classes;  // in packing order
  std::vector<std::shared_ptr<const SharedEstimate>> estimates;
};

// An estimate made under another cap still holds when that cap never
// stopped it and `cap` allows the nodes it used.
bool Serves(const SharedEstimate& shared, int64_t cap) {
  return shared.cap == cap || (!shared.estimate.stopped_at_max_nodes &&
                               shared.estimate.node_count <= cap);
}

// One group during planning: its template, the pod classes it admits, and
// its current option, recomputed only when something it depends on changed.
struct GroupPlanState {
  const NodeGroup* group = nullptr;
  std::optional<ChosenTemplate> chosen;
  Resources free;  // of an empty new node, DaemonSets taken out
  int64_t target = 0;
  bool backed_off = false;
  std::string unhealthy;         // why it is no option; empty: healthy
  std::vector<Unfit> class_fit;  // per pending pod class
  size_t kind = 0;               // into kinds_, when chosen
  bool dirty = true;
  bool has_option = false;
  // All or nothing: the pods its estimate took when that was not all.
  int64_t took_only = 0;
  ExpansionOption option;
  std::shared_ptr<const SharedEstimate> estimate;  // behind the option
};

// A pending pod (its index) and the new node of its group it goes to.
struct PodOnNewNode {
  size_t pod = 0;
  int64_t node = 0;
};

class ScaleUpPlanner {
 public:
  ScaleUpPlanner(const ClusterSnapshot& snapshot,
                 const std::vector<NodeGroup>& groups,
                 const ScaleUpMemory& memory, const ScaleUpConfig& config,
                 ExpanderChain* expander,
                 const std::set<std::string>* all_or_nothing = nullptr)
      : snapshot_(snapshot),
        memory_(memory),
        config_(config),
        expander_(expander),
        all_or_nothing_(all_or_nothing) {
    InitGroups(groups);
  }

  ScaleUpPlan Plan() {
    FilterOutSchedulable();
    classes_ = ClassifyPods(pending_);
    taken_count_.assign(classes_.classes.size(), 0);
    ComputeClassFit();
    while (PlanOneRound()) {
    }
    FinishIncreases();
    ReportUnschedulable();
    return std::move(plan_);
  }

 private:
  void InitGroups(const std::vector<NodeGroup>& groups) {
    std::unordered_map<std::string_view, std::vector<const NodeState*>>
        nodes_by_group;
    for (size_t i = 0; i < snapshot_.nodes.size(); ++i) {
      const NodeState& node = snapshot_.nodes[i];
      totals_.Add(node.allocatable, 1);
      std::string_view group = snapshot_.GroupOf(i);
      if (!group.empty()) nodes_by_group[group].push_back(&node);
    }
    const std::vector<const PodState*> daemonsets =
        OnePodPerDaemonSet(snapshot_.pods);
    groups_.reserve(groups.size());
    for (const NodeGroup& group : groups) {
      GroupPlanState state;
      state.group = &group;
      state.target = group.target_size;
      state.backed_off = memory_.backed_off_groups.contains(group.name);
      if (auto unhealthy = memory_.unhealthy_groups.find(group.name);
          unhealthy != memory_.unhealthy_groups.end()) {
        state.unhealthy = unhealthy->second;
      }
      auto remembered = memory_.remembered_templates.find(group.name);
      state.chosen =
          ChooseTemplate(group, nodes_by_group[group.name],
                         remembered == memory_.remembered_templates.end()
                             ? nullptr
                             : &remembered->second,
                         config_.taints);
      if (state.chosen) {
        state.free = FreeOnNewNode(state.chosen->node, daemonsets);
        const int64_t registered =
            static_cast<int64_t>(nodes_by_group[group.name].size());
        upcoming_.push_back(
            {groups_.size(),
             std::max<int64_t>(0, group.target_size - registered)});
        totals_.Add(state.chosen->node.allocatable, upcoming_.back().second);
      }
      groups_.push_back(std::move(state));
    }
  }

  // Pods the scheduler can place on existing or upcoming nodes trigger
  // nothing; the rest become pending_.
  void FilterOutSchedulable() {
    const std::vector<const PodState*> candidates = PendingPods(snapshot_.pods);
    // Most iterations have none: no bins to build then (a cluster's worth
    // of pods summed per node).
    if (candidates.empty()) return;
    placement_.emplace(snapshot_.nodes, snapshot_.pods);
    for (const auto& [group, count] : upcoming_) {
      for (int64_t i = 0; i < count; ++i) {
        const NodeTemplate& node = groups_[group].chosen->node;
        placement_->AddBin(
            BinFromTemplate(node, groups_[group].free, TemplateLimits(node)));
      }
    }
    BinPlacement::PendingResult placed = placement_->PlacePending(candidates);
    for (const PodState* pod : placed.placed) {
      plan_.fit_existing.push_back(pod->Key());
    }
    pending_ = std::move(placed.left);
    if (all_or_nothing_ != nullptr) {
      std::erase_if(pending_, [this](const PodState* pod) {
        return !all_or_nothing_->contains(pod->Key());
      });
    }
    topology_matters_ =
        placement_->use_topology() &&
        std::any_of(pending_.begin(), pending_.end(), [&](const PodState* pod) {
          return topology().Matters(*pod);
        });
    // The pending pods' terms registered once, before the estimates place
    // into this topology.
    if (topology_matters_) topology().Prepare(pending_);
  }

  // Existing, upcoming and planned nodes with their pods, for inter-pod
  // constraints; consulted only when topology_matters_.
  Topology& topology() { return placement_->topology(); }

  void ComputeClassFit() {
    for (GroupPlanState& state : groups_) {
      if (!state.chosen) continue;
      state.class_fit.reserve(classes_.classes.size());
      std::vector<size_t> fitting;
      for (size_t c = 0; c < classes_.classes.size(); ++c) {
        const PodState& pod = *classes_.classes[c].representative;
        Unfit fit = CheckNodeConstraints(pod, state.chosen->node.labels,
                                         state.chosen->node.taints);
        if (fit == Unfit::kNone && !Fits(pod.requests, state.free)) {
          fit = Unfit::kResources;
        }
        const VolumeLimits* limits = TemplateLimits(state.chosen->node);
        if (fit == Unfit::kNone && limits != nullptr &&
            !AttachLimitsAllow(pod, {}, *limits)) {
          fit = Unfit::kVolumeLimits;
        }
        state.class_fit.push_back(fit);
        if (fit == Unfit::kNone) fitting.push_back(c);
      }
      SortForPacking(state.chosen->node.allocatable, &fitting);
      state.kind = KindOf(state, std::move(fitting));
    }
  }

  // Once per group, so that the estimator finds its input in order.
  void SortForPacking(const Resources& allocatable,
                      std::vector<size_t>* fitting) const {
    std::vector<std::pair<double, size_t>> scored;
    for (size_t c : *fitting) {
      scored.emplace_back(
          -PackingScore(classes_.classes[c].representative->requests,
                        allocatable),
          c);
    }
    std::stable_sort(scored.begin(), scored.end());
    for (size_t k = 0; k < scored.size(); ++k) {
      (*fitting)[k] = scored[k].second;
    }
  }

  // With inter-pod constraints the template's labels (its zone) matter too.
  size_t KindOf(const GroupPlanState& state, std::vector<size_t> fitting) {
    const Resources& allocatable = state.chosen->node.allocatable;
    const Labels* labels = &state.chosen->node.labels;
    const VolumeLimits* limits = TemplateLimits(state.chosen->node);
    for (size_t k = 0; config_.share_estimates && k < kinds_.size(); ++k) {
      if (kinds_[k].free == state.free &&
          kinds_[k].allocatable == allocatable &&
          kinds_[k].fitting_classes == fitting &&
          (!topology_matters_ || *kinds_[k].labels == *labels) &&
          SameLimits(kinds_[k].volume_limits, limits)) {
        return k;
      }
    }
    kinds_.push_back(
        {state.free, allocatable, labels, limits, std::move(fitting), {}});
    return kinds_.size() - 1;
  }

  const VolumeLimits* TemplateLimits(const NodeTemplate& node) const {
    return NewNodeVolumeLimits(node, config_.csi_node_aware_scheduling);
  }

  static bool SameLimits(const VolumeLimits* a, const VolumeLimits* b) {
    return a == b || (a != nullptr && b != nullptr && *a == *b);
  }

  // The most nodes the group may add now, and the limit that says so.
  NodeAllowance Cap(const GroupPlanState& state) const {
    NodeAllowance allowance = NodesAllowedByLimits(
        config_.limits, totals_, state.chosen->node.allocatable);
    const int64_t room = state.group->max_size - state.target;
    if (room < allowance.nodes) allowance = {room, BindingLimit::kNone};
    return allowance;
  }

  int64_t Remaining(size_t pod_class) const {
    return static_cast<int64_t>(classes_.classes[pod_class].members.size()) -
           taken_count_[pod_class];
  }

  void RefreshOption(GroupPlanState* state) {
    state->dirty = false;
    state->has_option = false;
    state->took_only = 0;
    if (!state->chosen || state->backed_off || !state->unhealthy.empty())
      return;
    const int64_t cap = Cap(*state).nodes;
    if (cap <= 0) return;
    state->estimate = EstimateFor(&kinds_[state->kind], cap);
    const SharedEstimate& shared = *state->estimate;
    if (shared.estimate.node_count == 0) return;
    if (all_or_nothing_ != nullptr &&
        shared.pod_count < static_cast<int64_t>(pending_.size())) {
      state->took_only = shared.pod_count;
      return;
    }
    state->has_option = true;
    state->option = ExpansionOption{state->group->name,
                                    shared.estimate.node_count,
                                    shared.pod_count,
                                    shared.requested,
                                    state->chosen->node.allocatable,
                                    state->group->price};
  }

  std::shared_ptr<const SharedEstimate> EstimateFor(PackingKind* kind,
                                                    int64_t cap) {
    for (const auto& shared : kind->estimates) {
      if (Serves(*shared, cap)) return shared;
    }
    auto shared = std::make_shared<SharedEstimate>();
    shared->cap = cap;
    std::vector<PodCount> entries;
    for (size_t c : kind->fitting_classes) {
      if (Remaining(c) == 0) continue;
      entries.push_back({classes_.classes[c].representative, Remaining(c)});
      shared->classes.push_back(c);
    }
    if (!entries.empty()) {
      const EstimateTopology topology{
          topology_matters_ ? &placement_->topology() : nullptr, kind->labels};
      shared->estimate =
          EstimateNewNodes(entries, kind->free, kind->allocatable, cap,
                           topology, kind->volume_limits);
    }
    for (const Placement& p : shared->estimate.placements) {
      shared->pod_count += p.count;
      shared->requested += Times(entries[p.entry].pod->requests, p.count);
    }
    kind->estimates.push_back(shared);
    return shared;
  }

  bool PlanOneRound() {
    std::vector<const ExpansionOption*> options;
    std::unordered_map<const ExpansionOption*, size_t> group_of;
    for (size_t g = 0; g < groups_.size(); ++g) {
      GroupPlanState& state = groups_[g];
      if (state.dirty) RefreshOption(&state);
      if (!state.has_option) continue;
      options.push_back(&state.option);
      group_of[&state.option] = g;
    }
    if (options.empty()) return false;
    const ExpansionOption* chosen = expander_->Choose(options);
    if (chosen == nullptr) {
      expander_declined_ = true;
      return false;
    }
    Apply(group_of[chosen]);
    return all_or_nothing_ == nullptr;
  }

  std::vector<size_t> BalancedGroups(size_t chosen) const {
    std::vector<size_t> out = {chosen};
    if (!config_.balance_similar_node_groups) return out;
    for (size_t g = 0; g < groups_.size(); ++g) {
      if (g == chosen || !groups_[g].has_option) continue;
      if (SimilarTemplates(groups_[chosen].chosen->node,
                           groups_[g].chosen->node)) {
        out.push_back(g);
      }
    }
    return out;
  }

  void Apply(size_t chosen) {
    const std::vector<size_t> sharing = BalancedGroups(chosen);
    std::vector<GroupSize> sizes;
    for (size_t g : sharing) {
      sizes.push_back({groups_[g].target, groups_[g].group->max_size});
    }
    const GroupPlanState& winner = groups_[chosen];
    const std::vector<int64_t> deltas =
        SplitIncrease(winner.option.node_count, sizes);
    // New nodes 0..n-1 of the winner's packing go to the sharing groups in
    // order, and their pods with them.
    std::vector<int64_t> group_of_node;
    std::vector<int64_t> first_node_of(sharing.size());
    for (size_t k = 0; k < sharing.size(); ++k) {
      first_node_of[k] = static_cast<int64_t>(group_of_node.size());
      group_of_node.insert(group_of_node.end(), deltas[k], k);
    }
    // Per sharing group: pending pod, and its node among the group's new
    // nodes of this round.
    std::vector<std::vector<PodOnNewNode>> pods_of(sharing.size());
    std::vector<bool> class_touched(classes_.classes.size(), false);
    std::vector<std::pair<size_t, int64_t>> new_node_of;  // pending pod, node
    // Pods of a class are interchangeable: the first untaken ones go.
    for (const Placement& p : winner.estimate->estimate.placements) {
      const size_t c = winner.estimate->classes[p.entry];
      const std::vector<size_t>& members = classes_.classes[c].members;
      const int64_t k = group_of_node[p.node];
      std::vector<PodOnNewNode>& into = pods_of[k];
      for (int64_t n = 0; n < p.count; ++n) {
        into.push_back({members[taken_count_[c]++], p.node - first_node_of[k]});
        if (topology_matters_)
          new_node_of.emplace_back(into.back().pod, p.node);
      }
      class_touched[c] = true;
    }
    if (topology_matters_) AddToTopology(sharing, group_of_node, new_node_of);
    for (size_t k = 0; k < sharing.size(); ++k) {
      if (deltas[k] == 0) continue;
      GroupPlanState& state = groups_[sharing[k]];
      state.target += deltas[k];
      totals_.Add(state.chosen->node.allocatable, deltas[k]);
      AddIncrease(state.group->name, deltas[k], pods_of[k]);
      state.dirty = true;
    }
    MarkStale(class_touched);
  }

  // The new nodes of a decided increase, with their pods, become part of
  // the cluster the next estimates see.
  void AddToTopology(
      const std::vector<size_t>& sharing,
      const std::vector<int64_t>& group_of_node,
      const std::vector<std::pair<size_t, int64_t>>& new_node_of) {
    std::vector<size_t> topology_node(group_of_node.size());
    for (size_t n = 0; n < group_of_node.size(); ++n) {
      const GroupPlanState& state = groups_[sharing[group_of_node[n]]];
      topology_node[n] = topology().AddNode(&state.chosen->node.labels);
    }
    for (const auto& [pod, node] : new_node_of) {
      topology().Place(*pending_[pod], topology_node[node]);
    }
  }

  // Rooms and limits only shrink and pods only leave, so an option stays
  // valid unless its pods were taken or its cap fell below what it used.
  // Inter-pod constraints see every placement: then every option is redone.
  void MarkStale(const std::vector<bool>& class_touched) {
    std::vector<bool> kind_touched(kinds_.size(), false);
    for (size_t k = 0; k < kinds_.size(); ++k) {
      const std::vector<size_t>& fitting = kinds_[k].fitting_classes;
      kind_touched[k] = topology_matters_ ||
                        std::any_of(fitting.begin(), fitting.end(),
                                    [&](size_t c) { return class_touched[c]; });
      if (kind_touched[k]) kinds_[k].estimates.clear();
    }
    for (GroupPlanState& state : groups_) {
      // A placement can also open a domain to pods (a spread's minimum
      // rises, an affinity is met), so a group without an option may have
      // one now.
      if (topology_matters_ && state.chosen) state.dirty = true;
      if (state.dirty || !state.has_option) continue;
      state.dirty = kind_touched[state.kind] ||
                    !Serves(*state.estimate, Cap(state).nodes);
    }
  }

  // A group grown in several rounds has one increase: a round's new nodes
  // come after the earlier rounds'.
  void AddIncrease(const std::string& group, int64_t delta,
                   const std::vector<PodOnNewNode>& pods) {
    auto it = increase_index_.find(group);
    if (it == increase_index_.end()) {
      it = increase_index_.emplace(group, increases_.size()).first;
      increases_.push_back({group, 0, {}});
    }
    const int64_t earlier = increases_[it->second].delta;
    increases_[it->second].delta += delta;
    auto& all = increase_pods_[group];
    for (const PodOnNewNode& placed : pods) {
      all.push_back({placed.pod, earlier + placed.node});
    }
  }

  void FinishIncreases() {
    for (GroupIncrease& increase : increases_) {
      std::vector<PodOnNewNode>& pods = increase_pods_[increase.group];
      std::sort(pods.begin(), pods.end(),
                [](const PodOnNewNode& a, const PodOnNewNode& b) {
                  return a.pod < b.pod;
                });
      for (const PodOnNewNode& placed : pods) {
        increase.pods.push_back(pending_[placed.pod]->Key());
        increase.pod_nodes.push_back(placed.node);
      }
      plan_.increases.push_back(std::move(increase));
    }
  }

  std::string Reason(const GroupPlanState& state, size_t pod_class) const {
    if (!state.chosen) {
      return "no node template: no ready node, none remembered, none declared";
    }
    const PodState& pod = *classes_.classes[pod_class].representative;
    switch (state.class_fit[pod_class]) {
      case Unfit::kNone:
        break;
      case Unfit::kResources:
        return "does not fit: insufficient " +
               FirstShortResource(pod.requests, state.free) +
               " on an empty new node";
      case Unfit::kVolume:
        // The class's pods ask the same of a node through different claims:
        // the representative's claim is named only when it is the one pod.
        if (classes_.classes[pod_class].members.size() > 1) {
          return FirstUnmetVolumeNeed(pod, state.chosen->node.labels)->reason +
                 " (" +
                 std::to_string(classes_.classes[pod_class].members.size()) +
                 " pods alike)";
        }
        return DescribeNodeConstraintFailure(pod, state.chosen->node.labels,
                                             state.chosen->node.taints);
      case Unfit::kVolumeLimits:
        return "node(s) exceed max volume count: the pod's volumes exceed "
               "the CSI attach limits of an empty new node";
      default:
        return DescribeNodeConstraintFailure(pod, state.chosen->node.labels,
                                             state.chosen->node.taints);
    }
    if (state.backed_off) return "node group backed off";
    if (!state.unhealthy.empty()) return state.unhealthy;
    if (state.target >= state.group->max_size) {
      return "max size reached (" + std::to_string(state.group->max_size) + ")";
    }
    const NodeAllowance cap = Cap(state);
    if (cap.nodes <= 0)
      return DescribeBindingLimit(cap.binding, config_.limits);
    if (state.took_only > 0) {
      return "not all pods would fit and scale-up is using all-or-nothing "
             "strategy: " +
             std::to_string(state.took_only) + " of " +
             std::to_string(pending_.size()) + " pods on the " +
             std::to_string(cap.nodes) + " new nodes allowed";
    }
    if (expander_declined_) return "not chosen by the expander";
    if (topology_matters_ && HasTopologyConstraints(pod)) {
      return "pod affinity, anti-affinity or topology spread not met on a "
             "new node";
    }
    return "does not fit with the other pods on a new node";
  }

  void ReportUnschedulable() {
    std::vector<std::pair<size_t, std::shared_ptr<const GroupReasons>>> left;
    for (size_t c = 0; c < classes_.classes.size(); ++c) {
      if (Remaining(c) == 0) continue;
      auto reasons = std::make_shared<GroupReasons>();
      for (const GroupPlanState& state : groups_) {
        (*reasons)[state.group->name] = Reason(state, c);
      }
      const std::vector<size_t>& members = classes_.classes[c].members;
      for (size_t i = taken_count_[c]; i < members.size(); ++i) {
        left.emplace_back(members[i], reasons);
      }
    }
    std::sort(left.begin(), left.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    plan_.unschedulable.reserve(left.size());
    for (auto& [pod, why] : left) {
      plan_.unschedulable.push_back({pending_[pod]->Key(), std::move(why)});
    }
  }

  const ClusterSnapshot& snapshot_;
  const ScaleUpMemory& memory_;
  const ScaleUpConfig& config_;
  ExpanderChain* expander_;
  // Set: one all-or-nothing scale-up for these pods.
  const std::set<std::string>* all_or_nothing_;
  std::vector<GroupPlanState> groups_;
  std::vector<PackingKind> kinds_;
  std::vector<std::pair<size_t, int64_t>> upcoming_;  // group, nodes
  ClusterTotals totals_;
  // Existing and upcoming nodes (planned ones join its topology).
  std::optional<BinPlacement> placement_;
  bool topology_matters_ = false;
  std::vector<const PodState*> pending_;
  PodClasses classes_;
  std::vector<size_t> taken_count_;  // per class; its first members
  bool expander_declined_ = false;
  std::vector<GroupIncrease> increases_;
  std::unordered_map<std::string, size_t> increase_index_;
  std::unordered_map<std::string, std::vector<PodOnNewNode>> increase_pods_;
  ScaleUpPlan plan_;
};

}  // namespace

ScaleUpPlan PlanScaleUp(const ClusterSnapshot& snapshot,
                        const std::vector<NodeGroup>& groups,
                        const ScaleUpMemory& memory,
                        const ScaleUpConfig& config, ExpanderChain* expander) {
  return ScaleUpPlanner(snapshot, groups, memory, config, expander).Plan();
}

ScaleUpPlan PlanAllOrNothingScaleUp(const ClusterSnapshot& snapshot,
                                    const std::vector<NodeGroup>& groups,
                                    const ScaleUpMemory& memory,
                                    const ScaleUpConfig& config,
                                    ExpanderChain* expander,
                                    const std::set<std::string>& pods) {
  return ScaleUpPlanner(snapshot, groups, memory, config, expander, &pods)
      .Plan();
}

std::string DescribeIncrease(const GroupIncrease& increase,
                             const NodeGroup& group) {
  const std::string max = group.max_size >= kNoGroupMax
                              ? "its NodePool's limits"
                              : std::to_string(group.max_size);
  return "{" + group.name + " " + std::to_string(group.target_size) + "->" +
         std::to_string(group.target_size + increase.delta) + " (max: " + max +
         ")}";
}

}  // namespace propscaler::nodescale
