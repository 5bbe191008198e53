#include "nodescale/plan/disruption/disruption_context.h"

#include <algorithm>

#include "nodescale/domain/instance_types_json.h"
#include "nodescale/plan/disruption/disruption_cost.h"
#include "nodescale/plan/health/live_snapshot.h"

namespace propscaler::nodescale {
namespace {

// Karpenter's MinInstanceTypesForSpotToSpotConsolidation: one spot node is
// replaced by a spot node only when this many cheaper instance types could
// take its pods (fewer would race to the bottom of the spot price list).
constexpr size_t kMinSpotToSpotTypes = 15;

// The instance types (a group's instance-type label, else the group: a
// declared group is one type) of the spot options cheaper than `price`.
size_t CheaperSpotTypes(const std::vector<NewNodes>& options,
                        const std::vector<NodeGroup>& groups, double price) {
  std::set<std::string, std::less<>> types;
  for (const NewNodes& option : options) {
    const NodeGroup* group = FindGroup(groups, option.group);
    if (group->capacity_type != "spot" || !(option.price_per_hour < price)) {
      continue;
    }
    std::string type = group->name;
    if (group->declared_template) {
      const Labels& labels = group->declared_template->labels;
      auto found = labels.find(std::string(kInstanceTypeLabel));
      if (found != labels.end()) type = found->second;
    }
    types.insert(std::move(type));
  }
  return types.size();
}

std::string Seconds(Duration d) {
  return std::to_string(
             std::chrono::duration_cast<std::chrono::seconds>(d).count()) +
         "s";
}

}  // namespace

DisruptionContext::DisruptionContext(const DisruptionInput& input,
                                     const DisruptionOptions& options,
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

int64_t DisruptionContext::Allowed(const NodePool& pool,
                                   DisruptionReason reason) {
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

int64_t& DisruptionContext::Left(std::map<std::string, int64_t>* left,
                                 const NodePool& pool,
                                 DisruptionReason reason) {
  auto [it, fresh] = left->try_emplace(pool.name, 0);
  if (fresh) it->second = Allowed(pool, reason);
  return it->second;
}

std::optional<DisruptionCommand> DisruptionContext::Consolidate(
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
  std::optional<size_t> cheaper;  // spot types cheaper than the candidate
  for (const NewNodes& option : result.options) {
    const NodeGroup* group = FindGroup(input_.groups, option.group);
    if (own_groups.contains(option.group)) continue;
    if (all_spot && group->capacity_type == "spot") {
      if (!options_.spot_to_spot) {
        *why =
            "spot-to-spot consolidation is disabled, can't replace a spot "
            "node with a spot node";
        continue;
      }
      // Multi-node commands need no spread of cheaper types (Karpenter).
      if (candidates.size() == 1) {
        if (!cheaper) {
          cheaper = CheaperSpotTypes(result.options, input_.groups, total);
        }
        if (*cheaper < kMinSpotToSpotTypes) {
          *why = "spot-to-spot consolidation requires " +
                 std::to_string(kMinSpotToSpotTypes) +
                 " cheaper instance type options than the current "
                 "candidate to consolidate, got " +
                 std::to_string(*cheaper);
          continue;
        }
      }
    }
    if (!(option.price_per_hour < total)) continue;
    command.replacement = option;
    command.savings_per_hour = total - option.price_per_hour;
    return command;
  }
  return std::nullopt;
}

std::optional<std::string> DisruptionContext::BelowMinSize(
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

void DisruptionContext::CountPoolNodes() {
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

void DisruptionContext::Block(size_t node, DisruptionMethod method,
                              std::string reason, std::string pod) {
  plan_->blocked.push_back(
      {Nodes()[node].name, method, std::move(reason), std::move(pod)});
}

void DisruptionContext::BlockByBudget(const Candidate& c,
                                      DisruptionMethod method,
                                      DisruptionReason reason) {
  Block(c.node, method,
        "no disruption allowed for " +
            std::string(DisruptionReasonName(reason)) +
            " by the budgets of pool " + c.pool->name);
}

// Why the node may not be disrupted by any graceful method: not ours, on
// its way out, not yet initialized or Ready, about to take pending pods
// (Karpenter's nominated nodes), opted out, or holding a pod that may not
// go. Computed once per node and plan.
const std::optional<DisruptionContext::Blocker>& DisruptionContext::NodeBlocker(
    size_t i) {
  auto [it, fresh] = blockers_.try_emplace(i);
  if (fresh) it->second = FindNodeBlocker(i);
  return it->second;
}

std::optional<DisruptionContext::Blocker> DisruptionContext::FindNodeBlocker(
    size_t i) const {
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
  if (NodeOptsOut(node)) return Blocker{"the node is annotated do-not-disrupt"};
  for (const PodState* pod : sim_.PodsOn(i)) {
    if (std::optional<std::string> blocker =
            PodDisruptionBlocker(*pod, input_.snapshot->pdbs, input_.now)) {
      return Blocker{*blocker, pod->Key()};
    }
  }
  return std::nullopt;
}

Candidate DisruptionContext::MakeCandidate(size_t i) const {
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

std::vector<Candidate> DisruptionContext::Eligible(DisruptionMethod method) {
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

DisruptionCommand DisruptionContext::Command(
    DisruptionMethod method, DisruptionReason reason,
    const std::vector<Candidate>& candidates) const {
  DisruptionCommand command;
  command.method = method;
  command.reason = reason;
  for (const Candidate& c : candidates) {
    command.nodes.push_back(Nodes()[c.node].name);
  }
  return command;
}

bool DisruptionContext::Consolidatable(const Candidate& c) const {
  const std::optional<Duration>& after = c.pool->consolidate_after;
  return after && input_.now - input_.life[c.node].last_pod_event >= *after;
}

std::string DisruptionContext::WindowReason(const Candidate& c) const {
  if (!c.pool->consolidate_after) {
    return "pool " + c.pool->name + " has consolidation disabled";
  }
  return "consolidateAfter " + Seconds(*c.pool->consolidate_after) +
         " has not passed since its pods last changed";
}

std::vector<Candidate> DisruptionContext::EmptinessCandidates() {
  std::vector<Candidate> out;
  for (Candidate& c : Eligible(DisruptionMethod::kEmptiness)) {
    if (!c.empty) continue;
    if (!Consolidatable(c)) {
      Block(c.node, DisruptionMethod::kEmptiness, WindowReason(c));
      continue;
    }
    out.push_back(c);
  }
  SortBySavings(Nodes(), &out);
  CountEligible(DisruptionReason::kEmpty, out.size());
  return out;
}

std::vector<Candidate> DisruptionContext::ConsolidationCandidates() {
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
  SortBySavings(Nodes(), &out);
  CountEligible(DisruptionReason::kUnderutilized, out.size());
  return out;
}

void SortBySavings(const std::vector<NodeState>& nodes,
                   std::vector<Candidate>* candidates) {
  std::stable_sort(candidates->begin(), candidates->end(),
                   [&](const Candidate& a, const Candidate& b) {
                     const double ra = a.price / a.cost;
                     const double rb = b.price / b.cost;
                     if (ra != rb) return ra > rb;
                     return nodes[a.node].name < nodes[b.node].name;
                   });
}

}  // namespace propscaler::nodescale
