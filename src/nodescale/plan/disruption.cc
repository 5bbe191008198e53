#include "nodescale/plan/disruption.h"

#include <algorithm>
#include <limits>
#include <set>

#include "nodescale/plan/disruption_cost.h"
#include "nodescale/plan/template_hash.h"

namespace propscaler::nodescale {
namespace {

constexpr int64_t kAnyNumberOfNodes = std::numeric_limits<int64_t>::max();

std::string Seconds(Duration d) {
  return std::to_string(
             std::chrono::duration_cast<std::chrono::seconds>(d).count()) +
         "s";
}

struct Candidate {
  size_t node = 0;
  const NodeGroup* group = nullptr;
  const NodePool* pool = nullptr;
  double price = 0;
  double cost = 1;  // RescheduleCost
  bool empty = false;
  TimePoint created;
};

class Planner {
 public:
  Planner(const DisruptionInput& input, const DisruptionOptions& options,
          DisruptionPlan* plan)
      : input_(input), options_(options), plan_(plan), sim_(input) {
    CountPoolNodes();
    for (const auto& [name, count] : counts_) {
      for (DisruptionReason reason :
           {DisruptionReason::kEmpty, DisruptionReason::kDrifted,
            DisruptionReason::kUnderutilized}) {
        Allowed(*count.pool, reason);
      }
    }
  }

  std::optional<DisruptionCommand> Run(DisruptionMethod method) {
    switch (method) {
      case DisruptionMethod::kExpiry:
        return Expiry();
      case DisruptionMethod::kEmptiness:
        return Emptiness();
      case DisruptionMethod::kDrift:
        return Drift();
      case DisruptionMethod::kMultiNode:
        return MultiNode();
      case DisruptionMethod::kSingleNode:
        return SingleNode();
      case DisruptionMethod::kPriority:
        return Priority();
    }
    return std::nullopt;
  }

  // The candidates `method` would consider now, by node name.
  std::vector<Candidate> CandidatesFor(DisruptionMethod method) {
    switch (method) {
      case DisruptionMethod::kEmptiness:
        return EmptinessCandidates();
      case DisruptionMethod::kMultiNode:
      case DisruptionMethod::kSingleNode:
        return ConsolidationCandidates();
      default:
        return {};
    }
  }

  int64_t Allowed(const NodePool& pool, DisruptionReason reason) {
    const auto key = std::make_pair(pool.name, reason);
    auto found = allowed_.find(key);
    if (found != allowed_.end()) return found->second;
    const PoolCount& count = counts_[pool.name];
    const PoolAllowance allowance = AllowedDisruptions(
        pool, reason, count.nodes, count.disrupting, input_.now);
    plan_->allowances.push_back(
        {pool.name, reason, count.nodes, allowance.allowed, allowance.error});
    return allowed_[key] = allowance.allowed;
  }

  // What a method may still spend of a pool's budget for `reason`, taken
  // from Allowed() on first use and decremented by the caller.
  int64_t& Left(std::map<std::string, int64_t>* left, const NodePool& pool,
                DisruptionReason reason) {
    auto [it, fresh] = left->try_emplace(pool.name, 0);
    if (fresh) it->second = Allowed(pool, reason);
    return it->second;
  }

  // Delete when the pods fit on the nodes left; replace by one strictly
  // cheaper node of another group otherwise; nullopt with `*why` else.
  std::optional<DisruptionCommand> Consolidate(
      const std::vector<Candidate>& candidates, DisruptionMethod method,
      std::string* why) {
    std::vector<size_t> nodes;
    double total = 0;
    bool all_spot = true;
    std::set<std::string, std::less<>> own_groups;
    for (const Candidate& c : candidates) {
      nodes.push_back(c.node);
      total += c.price;
      all_spot = all_spot && c.group->capacity_type == "spot";
      own_groups.insert(c.group->name);
    }
    if (std::optional<std::string> floor = BelowMinSize(candidates)) {
      *why = *floor;
      return std::nullopt;
    }
    const SimulationResult result = sim_.Simulate(nodes, true, 1);
    if (!result.ok) {
      *why = result.failure;
      return std::nullopt;
    }
    DisruptionCommand command =
        Command(method, DisruptionReason::kUnderutilized, candidates);
    command.needs_validation = true;
    if (result.options.empty()) {
      command.savings_per_hour = total;
      return command;
    }
    *why = "can't replace with a cheaper node";
    for (const NewNodes& option : result.options) {
      const NodeGroup* group = GroupNamed(option.group);
      if (own_groups.contains(option.group)) continue;
      if (all_spot && group->capacity_type == "spot" &&
          !options_.spot_to_spot) {
        *why =
            "spot-to-spot consolidation is disabled, can't replace a spot "
            "node with a spot node";
        continue;
      }
      if (!(option.price_per_hour < total)) continue;
      command.replacement = option;
      command.savings_per_hour = total - option.price_per_hour;
      return command;
    }
    return std::nullopt;
  }

 private:
  struct PoolCount {
    const NodePool* pool = nullptr;
    int64_t nodes = 0;
    int64_t disrupting = 0;
  };

  // Removing these nodes would take a group below its min size.
  static std::optional<std::string> BelowMinSize(
      const std::vector<Candidate>& candidates) {
    std::map<const NodeGroup*, int64_t> taken;
    for (const Candidate& c : candidates) {
      if (++taken[c.group] > c.group->target_size - c.group->min_size) {
        return "node group " + c.group->name + " at min size " +
               std::to_string(c.group->min_size);
      }
    }
    return std::nullopt;
  }

  const NodeGroup* GroupNamed(std::string_view name) const {
    for (const NodeGroup& group : input_.groups) {
      if (group.name == name) return &group;
    }
    return nullptr;
  }

  const std::vector<NodeState>& Nodes() const { return input_.snapshot->nodes; }

  void CountPoolNodes() {
    for (size_t i = 0; i < Nodes().size(); ++i) {
      const NodePool* pool = sim_.PoolOfNode(i);
      if (pool == nullptr || !input_.life[i].initialized) continue;
      PoolCount& count = counts_[pool->name];
      count.pool = pool;
      ++count.nodes;
      if (!Nodes()[i].ready || input_.life[i].deleting) ++count.disrupting;
    }
    for (const auto& [group, not_ready] : input_.not_ready_nodes) {
      const NodePool& pool = PoolOf(input_, group);
      PoolCount& count = counts_[pool.name];
      count.pool = &pool;
      count.nodes += not_ready;
      count.disrupting += not_ready;
    }
  }

  void Block(size_t node, DisruptionMethod method, std::string reason,
             std::string pod = "") {
    plan_->blocked.push_back(
        {Nodes()[node].name, method, std::move(reason), std::move(pod)});
  }

  void BlockByBudget(const Candidate& c, DisruptionMethod method,
                     DisruptionReason reason) {
    Block(c.node, method,
          "no disruption allowed for " +
              std::string(DisruptionReasonName(reason)) +
              " by the budgets of pool " + c.pool->name);
  }

  struct Blocker {
    std::string reason;
    std::string pod;  // when a pod is the reason
  };

  // Why the node may not be disrupted by any graceful method: not ours, on
  // its way out, not yet initialized or Ready, about to take pending pods
  // (Karpenter's nominated nodes), opted out, or holding a pod that may not
  // go. Computed once per node and plan.
  const std::optional<Blocker>& NodeBlocker(size_t i) {
    auto [it, fresh] = blockers_.try_emplace(i);
    if (fresh) it->second = FindNodeBlocker(i);
    return it->second;
  }

  std::optional<Blocker> FindNodeBlocker(size_t i) const {
    const NodeState& node = Nodes()[i];
    const NodeLife& life = input_.life[i];
    if (sim_.GroupOfNode(i) == nullptr) return Blocker{"not in a node group"};
    if (life.deleting) return Blocker{"already being removed"};
    if (!life.initialized || !node.ready) return Blocker{"not Ready"};
    for (const PodState* pod : sim_.PodsOn(i)) {
      if (IsPending(*pod)) {
        return Blocker{"pending pod " + pod->Key() + " fits on it"};
      }
    }
    if (NodeOptsOut(node))
      return Blocker{"the node is annotated do-not-disrupt"};
    for (const PodState* pod : sim_.PodsOn(i)) {
      if (std::optional<std::string> blocker =
              PodDisruptionBlocker(*pod, input_.snapshot->pdbs, input_.now)) {
        return Blocker{*blocker, pod->Key()};
      }
    }
    return std::nullopt;
  }

  Candidate MakeCandidate(size_t i) const {
    Candidate c;
    c.node = i;
    c.group = sim_.GroupOfNode(i);
    c.pool = sim_.PoolOfNode(i);
    c.price = PriceOf(*c.group);
    c.cost = RescheduleCost(sim_.PodsOn(i));
    c.empty = c.cost <= 1.0;
    c.created = input_.life[i].created;
    return c;
  }

  // Eligible nodes for `method`, blockers recorded (once per node).
  std::vector<Candidate> Eligible(DisruptionMethod method) {
    std::vector<Candidate> out;
    for (size_t i = 0; i < Nodes().size(); ++i) {
      if (sim_.GroupOfNode(i) == nullptr) continue;
      if (const std::optional<Blocker>& blocker = NodeBlocker(i)) {
        if (blocked_once_.insert(i).second) {
          Block(i, method, blocker->reason, blocker->pod);
        }
        continue;
      }
      out.push_back(MakeCandidate(i));
    }
    return out;
  }

  static void SortBySavings(std::vector<Candidate>* candidates,
                            const std::vector<NodeState>& nodes) {
    std::stable_sort(candidates->begin(), candidates->end(),
                     [&](const Candidate& a, const Candidate& b) {
                       const double ra = a.price / a.cost;
                       const double rb = b.price / b.cost;
                       if (ra != rb) return ra > rb;
                       return nodes[a.node].name < nodes[b.node].name;
                     });
  }

  DisruptionCommand Command(DisruptionMethod method, DisruptionReason reason,
                            const std::vector<Candidate>& candidates) const {
    DisruptionCommand command;
    command.method = method;
    command.reason = reason;
    for (const Candidate& c : candidates) {
      command.nodes.push_back(Nodes()[c.node].name);
    }
    return command;
  }

  // Forceful: no budget, no opt-out, no PDB; a replacement first where the
  // pods need one, and the nodes go even where some pod has no place.
  std::optional<DisruptionCommand> Expiry() {
    std::vector<Candidate> expired;
    for (size_t i = 0; i < Nodes().size(); ++i) {
      const NodePool* pool = sim_.PoolOfNode(i);
      // A node of unknown age (a file without creationTimestamp) never
      // expires.
      if (pool == nullptr || input_.life[i].deleting ||
          input_.life[i].created == TimePoint()) {
        continue;
      }
      const std::optional<Duration>& after = pool->expire_after;
      if (after && input_.now - input_.life[i].created >= *after) {
        expired.push_back(MakeCandidate(i));
      }
    }
    if (expired.empty()) return std::nullopt;
    if (std::optional<DisruptionCommand> floor = ExpiryAtMinSize(expired)) {
      return floor;
    }
    std::vector<size_t> nodes;
    double price = 0;
    for (const Candidate& c : expired) {
      nodes.push_back(c.node);
      price += c.price;
    }
    DisruptionCommand command =
        Command(DisruptionMethod::kExpiry, DisruptionReason::kExpired, expired);
    const SimulationResult result =
        sim_.Simulate(nodes, false, kAnyNumberOfNodes);
    if (!result.options.empty()) command.replacement = result.options.front();
    command.savings_per_hour =
        price - (command.replacement ? command.replacement->price_per_hour : 0);
    return command;
  }

  // Expiring these nodes together would take a group below its min size:
  // then the oldest expired node of that group alone, replaced by a node
  // of its own group (the rest expire in later commands).
  std::optional<DisruptionCommand> ExpiryAtMinSize(
      const std::vector<Candidate>& expired) const {
    std::map<const NodeGroup*, int64_t> taken;
    for (const Candidate& c : expired) ++taken[c.group];
    const Candidate* oldest = nullptr;
    for (const Candidate& c : expired) {
      if (taken[c.group] <= c.group->target_size - c.group->min_size) continue;
      if (oldest == nullptr || c.created < oldest->created) oldest = &c;
    }
    if (oldest == nullptr) return std::nullopt;
    DisruptionCommand command = Command(DisruptionMethod::kExpiry,
                                        DisruptionReason::kExpired, {*oldest});
    command.replacement =
        NewNodes{oldest->group->name, 1, PriceOf(*oldest->group)};
    return command;
  }

  bool Consolidatable(const Candidate& c) const {
    const std::optional<Duration>& after = c.pool->consolidate_after;
    return after && input_.now - input_.life[c.node].last_pod_event >= *after;
  }

  std::string WindowReason(const Candidate& c) const {
    if (!c.pool->consolidate_after) {
      return "pool " + c.pool->name + " has consolidation disabled";
    }
    return "consolidateAfter " + Seconds(*c.pool->consolidate_after) +
           " has not passed since its pods last changed";
  }

  std::vector<Candidate> EmptinessCandidates() {
    std::vector<Candidate> out;
    for (Candidate& c : Eligible(DisruptionMethod::kEmptiness)) {
      if (!c.empty) continue;
      if (!Consolidatable(c)) {
        Block(c.node, DisruptionMethod::kEmptiness, WindowReason(c));
        continue;
      }
      out.push_back(c);
    }
    SortBySavings(&out, Nodes());
    plan_->eligible[DisruptionReason::kEmpty] =
        static_cast<int64_t>(out.size());
    return out;
  }

  std::optional<DisruptionCommand> Emptiness() {
    std::map<std::string, int64_t> left;
    std::vector<Candidate> taken;
    for (const Candidate& c : EmptinessCandidates()) {
      int64_t& budget = Left(&left, *c.pool, DisruptionReason::kEmpty);
      if (budget <= 0) {
        BlockByBudget(c, DisruptionMethod::kEmptiness,
                      DisruptionReason::kEmpty);
        continue;
      }
      taken.push_back(c);
      if (std::optional<std::string> floor = BelowMinSize(taken)) {
        taken.pop_back();
        Block(c.node, DisruptionMethod::kEmptiness, *floor);
        continue;
      }
      --budget;
    }
    if (taken.empty()) return std::nullopt;
    DisruptionCommand command =
        Command(DisruptionMethod::kEmptiness, DisruptionReason::kEmpty, taken);
    command.needs_validation = true;
    for (const Candidate& c : taken) command.savings_per_hour += c.price;
    return command;
  }

  std::optional<DisruptionCommand> Drift() {
    std::vector<Candidate> drifted;
    for (Candidate& c : Eligible(DisruptionMethod::kDrift)) {
      if (!DriftOf(Nodes()[c.node], *c.group).empty()) drifted.push_back(c);
    }
    plan_->eligible[DisruptionReason::kDrifted] =
        static_cast<int64_t>(drifted.size());
    std::stable_sort(drifted.begin(), drifted.end(),
                     [](const Candidate& a, const Candidate& b) {
                       if (a.empty != b.empty) return a.empty;
                       return a.created < b.created;
                     });
    for (const Candidate& c : drifted) {
      if (Allowed(*c.pool, DisruptionReason::kDrifted) <= 0) {
        BlockByBudget(c, DisruptionMethod::kDrift, DisruptionReason::kDrifted);
        continue;
      }
      const SimulationResult result =
          sim_.Simulate({c.node}, false, kAnyNumberOfNodes);
      if (!result.ok) {
        Block(c.node, DisruptionMethod::kDrift,
              "not all pods would schedule: " + result.failure);
        continue;
      }
      DisruptionCommand command =
          Command(DisruptionMethod::kDrift, DisruptionReason::kDrifted, {c});
      if (!result.options.empty()) command.replacement = result.options.front();
      command.savings_per_hour =
          c.price -
          (command.replacement ? command.replacement->price_per_hour : 0);
      return command;
    }
    return std::nullopt;
  }

  std::vector<Candidate> ConsolidationCandidates() {
    std::vector<Candidate> out;
    for (Candidate& c : Eligible(DisruptionMethod::kMultiNode)) {
      if (c.empty) continue;  // emptiness's
      if (c.pool->consolidation_policy == ConsolidationPolicy::kWhenEmpty) {
        Block(c.node, DisruptionMethod::kMultiNode,
              "pool " + c.pool->name +
                  " has consolidation policy WhenEmpty, but the node is not "
                  "empty");
        continue;
      }
      if (!Consolidatable(c)) {
        Block(c.node, DisruptionMethod::kMultiNode, WindowReason(c));
        continue;
      }
      out.push_back(c);
    }
    SortBySavings(&out, Nodes());
    plan_->eligible[DisruptionReason::kUnderutilized] =
        static_cast<int64_t>(out.size());
    return out;
  }

  std::optional<DisruptionCommand> MultiNode() {
    std::vector<Candidate> candidates;
    std::map<std::string, int64_t> left;
    for (const Candidate& c : ConsolidationCandidates()) {
      int64_t& budget = Left(&left, *c.pool, DisruptionReason::kUnderutilized);
      if (budget <= 0) continue;
      --budget;
      candidates.push_back(c);
    }
    if (candidates.size() < 2) return std::nullopt;
    const size_t max =
        std::min(candidates.size(), options_.max_multi_node_candidates);
    size_t lo = 1;
    size_t hi = candidates.size() <= max ? candidates.size() - 1 : max;
    std::optional<DisruptionCommand> best;
    while (lo <= hi) {
      const size_t mid = (lo + hi) / 2;
      const std::vector<Candidate> prefix(candidates.begin(),
                                          candidates.begin() + mid + 1);
      std::string why;
      if (std::optional<DisruptionCommand> command =
              Consolidate(prefix, DisruptionMethod::kMultiNode, &why)) {
        best = std::move(command);
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best;
  }

  // Sorted by savings, then taken round-robin across pools so that no pool
  // waits behind another's long list.
  static std::vector<Candidate> InterleavePools(
      const std::vector<Candidate>& sorted) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<Candidate>> by_pool;
    for (const Candidate& c : sorted) {
      if (!by_pool.contains(c.pool->name)) order.push_back(c.pool->name);
      by_pool[c.pool->name].push_back(c);
    }
    std::vector<Candidate> out;
    for (size_t round = 0; out.size() < sorted.size(); ++round) {
      for (const std::string& pool : order) {
        if (round < by_pool[pool].size()) out.push_back(by_pool[pool][round]);
      }
    }
    return out;
  }

  std::optional<DisruptionCommand> SingleNode() {
    for (const Candidate& c : InterleavePools(ConsolidationCandidates())) {
      if (Allowed(*c.pool, DisruptionReason::kUnderutilized) <= 0) {
        BlockByBudget(c, DisruptionMethod::kSingleNode,
                      DisruptionReason::kUnderutilized);
        continue;
      }
      std::string why;
      if (std::optional<DisruptionCommand> command =
              Consolidate({c}, DisruptionMethod::kSingleNode, &why)) {
        return command;
      }
      Block(c.node, DisruptionMethod::kSingleNode, why);
    }
    return std::nullopt;
  }

  int PriorityOf(std::string_view group) const {
    auto found = input_.group_priority.find(group);
    return found == input_.group_priority.end()
               ? std::numeric_limits<int>::min()
               : found->second;
  }

  // Pools that opt in move nodes of a lower-priority group to the
  // highest-priority group that takes their pods now.
  std::optional<DisruptionCommand> Priority() {
    std::vector<Candidate> candidates;
    for (Candidate& c : Eligible(DisruptionMethod::kPriority)) {
      if (c.pool->migrate_to_preferred) candidates.push_back(c);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](const Candidate& a, const Candidate& b) {
                       const int pa = PriorityOf(a.group->name);
                       const int pb = PriorityOf(b.group->name);
                       if (pa != pb) return pa < pb;
                       return a.created < b.created;
                     });
    for (const Candidate& c : candidates) {
      const int own = PriorityOf(c.group->name);
      const SimulationResult result =
          sim_.Simulate({c.node}, false, kAnyNumberOfNodes);
      const NewNodes* best = nullptr;
      for (const NewNodes& option : result.options) {
        const int priority = PriorityOf(option.group);
        if (priority > own &&
            (best == nullptr || priority > PriorityOf(best->group))) {
          best = &option;
        }
      }
      if (best == nullptr) continue;
      if (Allowed(*c.pool, DisruptionReason::kDrifted) <= 0) {
        BlockByBudget(c, DisruptionMethod::kPriority,
                      DisruptionReason::kDrifted);
        continue;
      }
      DisruptionCommand command =
          Command(DisruptionMethod::kPriority, DisruptionReason::kDrifted, {c});
      command.replacement = *best;
      command.savings_per_hour = c.price - best->price_per_hour;
      return command;
    }
    return std::nullopt;
  }

  const DisruptionInput& input_;
  const DisruptionOptions& options_;
  DisruptionPlan* plan_;
  DisruptionSimulator sim_;
  std::map<std::string, PoolCount> counts_;
  std::map<std::pair<std::string, DisruptionReason>, int64_t> allowed_;
  std::set<size_t> blocked_once_;
  std::map<size_t, std::optional<Blocker>> blockers_;
};

constexpr DisruptionMethod kMethodOrder[] = {
    DisruptionMethod::kExpiry,     DisruptionMethod::kEmptiness,
    DisruptionMethod::kDrift,      DisruptionMethod::kMultiNode,
    DisruptionMethod::kSingleNode, DisruptionMethod::kPriority,
};

}  // namespace

std::string_view DisruptionMethodName(DisruptionMethod method) {
  switch (method) {
    case DisruptionMethod::kExpiry:
      return "expiry";
    case DisruptionMethod::kEmptiness:
      return "emptiness";
    case DisruptionMethod::kDrift:
      return "drift";
    case DisruptionMethod::kMultiNode:
      return "multi-node";
    case DisruptionMethod::kSingleNode:
      return "single-node";
    case DisruptionMethod::kPriority:
      return "priority";
  }
  return "";
}

DisruptionPlan PlanDisruption(const DisruptionInput& input,
                              const DisruptionOptions& options) {
  DisruptionPlan plan;
  Planner planner(input, options, &plan);
  for (DisruptionMethod method : kMethodOrder) {
    std::optional<DisruptionCommand> command = planner.Run(method);
    if (!command) continue;
    if (options.preview) plan.previews.push_back(*command);
    if (!plan.command) plan.command = std::move(command);
    if (!options.preview) break;
  }
  return plan;
}

std::map<std::string, int, std::less<>> GroupPriorities(
    const std::vector<NodeGroup>& groups, const PriorityConfig& priorities) {
  std::map<std::string, int, std::less<>> out;
  for (const NodeGroup& group : groups) {
    if (std::optional<int> p = PriorityOf(priorities, group.name)) {
      out[group.name] = *p;
    }
  }
  return out;
}

std::vector<NodeLife> NodeLivesFromSnapshot(const ClusterSnapshot& snapshot) {
  std::vector<NodeLife> out;
  for (const NodeState& node : snapshot.nodes) {
    NodeLife life;
    life.created = node.created;
    life.last_pod_event = node.created;
    life.deleting = std::any_of(
        node.taints.begin(), node.taints.end(),
        [](const Taint& taint) { return taint.key == kToBeDeletedTaint; });
    out.push_back(life);
  }
  return out;
}

Result<DisruptionCommand> ValidateCommand(const DisruptionInput& input,
                                          const DisruptionCommand& command,
                                          const DisruptionOptions& options) {
  if (!command.needs_validation) return command;
  DisruptionPlan scratch;
  Planner planner(input, options, &scratch);
  std::vector<Candidate> still;
  std::vector<std::string> gone;
  const std::vector<Candidate> now = planner.CandidatesFor(command.method);
  for (const std::string& name : command.nodes) {
    auto found = std::find_if(now.begin(), now.end(), [&](const Candidate& c) {
      return input.snapshot->nodes[c.node].name == name;
    });
    if (found == now.end()) {
      gone.push_back(name);
    } else {
      still.push_back(*found);
    }
  }
  const bool keeps_subset = command.method == DisruptionMethod::kEmptiness;
  if (still.empty() || (!gone.empty() && !keeps_subset)) {
    return Status::Invalid("churn: node " + gone.front() +
                           " is no longer a candidate");
  }
  std::map<std::string, int64_t> left;
  std::vector<Candidate> within;
  for (const Candidate& c : still) {
    if (planner.Left(&left, *c.pool, command.reason)-- > 0) {
      within.push_back(c);
    }
  }
  if (within.empty() || (within.size() < still.size() && !keeps_subset)) {
    return Status::Invalid("budget: pool " + still.front().pool->name +
                           " no longer allows disrupting " +
                           std::to_string(still.size()) + " node(s) for " +
                           std::string(DisruptionReasonName(command.reason)));
  }
  DisruptionCommand validated = command;
  validated.nodes.clear();
  validated.savings_per_hour = 0;
  for (const Candidate& c : within) {
    validated.nodes.push_back(input.snapshot->nodes[c.node].name);
    validated.savings_per_hour += c.price;
  }
  if (keeps_subset) return validated;
  std::string why;
  std::optional<DisruptionCommand> again =
      planner.Consolidate(within, command.method, &why);
  const bool same_shape =
      again &&
      again->replacement.has_value() == command.replacement.has_value() &&
      (!command.replacement ||
       (again->replacement->group == command.replacement->group &&
        again->replacement->count == command.replacement->count));
  if (!same_shape) {
    return Status::Invalid("scheduling: " +
                           (again ? std::string("the simulation now gives "
                                                "another command")
                                  : why));
  }
  return *again;
}

}  // namespace propscaler::nodescale
