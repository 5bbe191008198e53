#include "nodescale/plan/scale_down/scale_down.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/simulation/bin_placement.h"

namespace propscaler::nodescale {
namespace {

double Fraction(int64_t used, int64_t total) {
  if (total <= 0) return used > 0 ? 1.0 : 0.0;
  return static_cast<double>(used) / static_cast<double>(total);
}

struct Candidate {
  size_t node = 0;
  double utilization = 0;
  std::vector<const PodState*> to_move;
};

class ScaleDownPlanner {
 public:
  ScaleDownPlanner(const ClusterSnapshot& snapshot,
                   const std::vector<NodeGroup>& groups,
                   const ScaleDownConfig& config)
      : snapshot_(snapshot),
        config_(config),
        placement_(snapshot.nodes, snapshot.pods),
        received_(snapshot.nodes.size()) {
    for (const PdbState& pdb : snapshot.pdbs) {
      pdb_left_.push_back(pdb.disruptions_allowed);
    }
    for (const NodeGroup& group : groups) groups_.emplace(group.name, &group);
    for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
      totals_.Add(snapshot.nodes[i].allocatable, 1);
      ++group_sizes_[std::string(snapshot.GroupOf(i))];
    }
    for (const NodeGroup& group : groups) {
      int64_t& size = group_sizes_[group.name];
      size = std::max(size, group.target_size);
    }
    PlacePendingPods();
  }

  ScaleDownPlan Plan() {
    for (Candidate& candidate : Candidates()) TryRemove(candidate);
    return std::move(plan_);
  }

 private:
  // Cluster Autoscaler's filter-out-schedulable step: a pending pod that
  // fits an existing node will land there, so the simulation puts it there
  // first and the node is not empty. A node that is not Ready yet counts
  // (the scheduler uses it once it is); a cordoned one does not.
  void PlacePendingPods() {
    std::vector<Bin>& bins = placement_.bins();
    for (size_t i = 0; i < bins.size(); ++i) {
      bins[i].accepts_pods = !snapshot_.nodes[i].unschedulable;
    }
    placement_.PlacePending(PendingPods(snapshot_.pods));
    for (size_t i = 0; i < bins.size(); ++i) {
      const NodeState& node = snapshot_.nodes[i];
      bins[i].accepts_pods = node.ready && !node.unschedulable;
    }
  }

  std::vector<Candidate> Candidates() {
    std::vector<Candidate> out;
    for (size_t i = 0; i < snapshot_.nodes.size(); ++i) {
      const NodeState& node = snapshot_.nodes[i];
      if (!groups_.contains(std::string(snapshot_.GroupOf(i)))) continue;
      if (AnnotationOf(node.annotations, kScaleDownDisabledAnnotation) ==
          "true") {
        continue;
      }
      // Being removed, by this process or (until the loop clears a stale
      // taint) by one before it: not a candidate again, as in CA.
      if (std::any_of(node.taints.begin(), node.taints.end(),
                      [](const Taint& taint) {
                        return taint.key == kToBeDeletedTaint;
                      })) {
        continue;
      }
      const double utilization =
          NodeUtilization(node, placement_.bins()[i].pods, config_);
      const NodeGroup& group = *groups_.at(std::string(snapshot_.GroupOf(i)));
      if (group.rolling_out) continue;
      const NodeGroupOptions& options = group.options;
      if (utilization >= options.scale_down_utilization_threshold.value_or(
                             config_.utilization_threshold)) {
        continue;
      }
      Candidate candidate{i, utilization, {}};
      for (const PodState* pod : placement_.bins()[i].pods) {
        if (MovesWithDrain(*pod)) candidate.to_move.push_back(pod);
      }
      out.push_back(std::move(candidate));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Candidate& a, const Candidate& b) {
                       if (a.to_move.empty() != b.to_move.empty()) {
                         return a.to_move.empty();
                       }
                       return a.utilization < b.utilization;
                     });
    return out;
  }

  std::optional<std::string> Blocker(const Candidate& candidate) {
    const NodeState& node = snapshot_.nodes[candidate.node];
    const std::string group(snapshot_.GroupOf(candidate.node));
    const NodeGroup& spec = *groups_.at(group);
    if (!node.ready && !config_.unready_enabled) {
      return "not Ready, and --scale-down-unready-enabled=false";
    }
    if (group_sizes_[group] <= spec.min_size) {
      return "node group " + group + " at min size " +
             std::to_string(spec.min_size);
    }
    if (!RemovalKeepsMinimums(config_.limits, totals_, node.allocatable)) {
      return "removal would cross the --cores-total or --memory-total minimum";
    }
    for (const PodState* pod : candidate.to_move) {
      if (std::optional<std::string> blocker =
              EvictionBlocker(*pod, snapshot_.pdbs)) {
        return blocker;
      }
      for (size_t i = 0; i < snapshot_.pdbs.size(); ++i) {
        const PdbState& pdb = snapshot_.pdbs[i];
        if (PdbCovers(pdb, *pod) && pdb_left_[i] < 1) {
          return "pod " + pod->Key() + ": PodDisruptionBudget " +
                 pdb.namespace_ + "/" + pdb.name + " has no disruption left";
        }
      }
    }
    return std::nullopt;
  }

  // The pods of a removed node take from their budgets' disruptions.
  void SpendPdbs(const Candidate& candidate) {
    for (const PodState* pod : candidate.to_move) {
      for (size_t i = 0; i < snapshot_.pdbs.size(); ++i) {
        if (PdbCovers(snapshot_.pdbs[i], *pod)) --pdb_left_[i];
      }
    }
  }

  // Moves every pod or none, its own and those it received; on failure
  // names the pod left without a node.
  std::optional<std::string> MovePods(const Candidate& candidate) {
    std::vector<const PodState*> pods = candidate.to_move;
    const std::vector<const PodState*>& received = received_[candidate.node];
    pods.insert(pods.end(), received.begin(), received.end());
    std::vector<std::pair<const PodState*, size_t>> moved;
    for (const PodState* pod : pods) {
      std::optional<size_t> destination = placement_.NextFit(*pod);
      if (!destination) {
        for (auto& [done, bin] : moved) placement_.Remove(*done, bin);
        return "pod " + pod->Key() + " fits on no other node";
      }
      placement_.Place(*pod, *destination);
      moved.emplace_back(pod, *destination);
    }
    for (const PodState* pod : received) {
      placement_.Remove(*pod, candidate.node);
    }
    received_[candidate.node].clear();
    for (auto& [pod, bin] : moved) received_[bin].push_back(pod);
    return std::nullopt;
  }

  void TryRemove(const Candidate& candidate) {
    const NodeState& node = snapshot_.nodes[candidate.node];
    if (std::optional<std::string> blocker = Blocker(candidate)) {
      plan_.kept.push_back({node.name, *blocker});
      return;
    }
    Bin& bin = placement_.bins()[candidate.node];
    const bool accepted = bin.accepts_pods;
    bin.accepts_pods = false;
    // Its pods leave its domains, and it is no domain any more.
    placement_.SetGone(candidate.node, true);
    if (std::optional<std::string> failure = MovePods(candidate)) {
      bin.accepts_pods = accepted;
      placement_.SetGone(candidate.node, false);
      plan_.kept.push_back({node.name, *failure});
      return;
    }
    const std::string group(snapshot_.GroupOf(candidate.node));
    --group_sizes_[group];
    totals_.Add(node.allocatable, -1);
    SpendPdbs(candidate);
    const NodeGroupOptions& options = groups_.at(group)->options;
    plan_.removals.push_back({node.name, group,
                              candidate.to_move.empty()
                                  ? NodeRemoval::Reason::kEmpty
                                  : NodeRemoval::Reason::kUnderutilized,
                              candidate.utilization, !node.ready,
                              node.ready ? options.scale_down_unneeded_time
                                         : options.scale_down_unready_time});
  }

  const ClusterSnapshot& snapshot_;
  const ScaleDownConfig& config_;
  BinPlacement placement_;  // bin i is snapshot_.nodes[i]
  // Per node, the pods moved onto it in this pass: they move again if it
  // goes too (Cluster Autoscaler's planner keeps such a node a candidate;
  // only removed nodes stop being destinations).
  std::vector<std::vector<const PodState*>> received_;
  std::vector<int64_t> pdb_left_;  // per snapshot_.pdbs
  std::unordered_map<std::string, const NodeGroup*> groups_;
  std::unordered_map<std::string, int64_t> group_sizes_;
  ClusterTotals totals_;
  ScaleDownPlan plan_;
};

}  // namespace

double NodeUtilization(const NodeState& node,
                       const std::vector<const PodState*>& pods_on_node,
                       const ScaleDownConfig& config) {
  int64_t cpu = 0;
  int64_t memory = 0;
  for (const PodState* pod : pods_on_node) {
    if (pod->terminated ||
        (config.ignore_daemonsets_utilization && IsDaemonSetPod(*pod)) ||
        (config.ignore_mirror_pods_utilization && IsMirrorPod(*pod))) {
      continue;
    }
    cpu += pod->requests.cpu_millis;
    memory += pod->requests.memory_bytes;
  }
  return std::max(Fraction(cpu, node.allocatable.cpu_millis),
                  Fraction(memory, node.allocatable.memory_bytes));
}

std::optional<std::string> EvictionBlocker(const PodState& pod,
                                           const std::vector<PdbState>& pdbs) {
  if (!MovesWithDrain(pod)) return std::nullopt;
  const std::string_view safe =
      AnnotationOf(pod.annotations, kSafeToEvictAnnotation);
  if (safe == "true") return std::nullopt;
  const std::string name = "pod " + pod.Key();
  if (safe == "false") return name + " is annotated safe-to-evict: \"false\"";
  if (pod.owner_kind.empty()) return name + " has no controller";
  if (pod.namespace_ == "kube-system" &&
      std::none_of(pdbs.begin(), pdbs.end(),
                   [&](const PdbState& pdb) { return PdbCovers(pdb, pod); })) {
    return name + " is in kube-system and no PodDisruptionBudget covers it";
  }
  if (pod.has_local_storage) {
    return name + " has local storage (emptyDir or hostPath)";
  }
  return std::nullopt;
}

ScaleDownPlan PlanScaleDown(const ClusterSnapshot& snapshot,
                            const std::vector<NodeGroup>& groups,
                            const ScaleDownConfig& config) {
  return ScaleDownPlanner(snapshot, groups, config).Plan();
}

std::string_view RemovalReasonName(NodeRemoval::Reason reason) {
  return reason == NodeRemoval::Reason::kEmpty ? "empty" : "underutilized";
}

}  // namespace propscaler::nodescale
