// What the disruption methods share while one plan is made: the scheduling
// simulation, the pools' budgets (counted once), why a node may not be
// disrupted gracefully (found once per node), the candidates of emptiness
// and of consolidation, and consolidation's delete-or-replace decision.
// Each method (disruption_method.h) asks it; none keeps state of its own.
// Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_CONTEXT_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nodescale/plan/disruption/disruption_command.h"
#include "nodescale/plan/disruption/disruption_input.h"
#include "nodescale/plan/disruption/disruption_simulation.h"

namespace propscaler::nodescale {

// No cap on the new nodes a simulation may ask for.
inline constexpr int64_t kAnyNumberOfNodes =
    std::numeric_limits<int64_t>::max();

// A node a method may disrupt.
struct Candidate {
  size_t node = 0;  // index into the snapshot's nodes
  const NodeGroup* group = nullptr;
  const NodePool* pool = nullptr;
  double price = 0;
  double cost = 1;  // RescheduleCost
  bool empty = false;
  TimePoint created;
};

class DisruptionContext {
 public:
  DisruptionContext(const DisruptionInput& input,
                    const DisruptionOptions& options, DisruptionPlan* plan);

  const DisruptionInput& input() const { return input_; }
  const DisruptionOptions& options() const { return options_; }
  DisruptionSimulator& sim() { return sim_; }
  const std::vector<NodeState>& Nodes() const { return input_.snapshot->nodes; }
  std::string_view NameOf(const Candidate& c) const {
    return Nodes()[c.node].name;
  }

  // The pool's budget for `reason` (recorded in the plan on first use).
  int64_t Allowed(const NodePool& pool, DisruptionReason reason);
  // What a method may still spend of a pool's budget for `reason`, taken
  // from Allowed() on first use and decremented by the caller.
  int64_t& Left(std::map<std::string, int64_t>* left, const NodePool& pool,
                DisruptionReason reason);

  // Nodes of a group, not blocked for graceful disruption (blockers are
  // recorded once per node, under the first method that met them).
  std::vector<Candidate> Eligible(DisruptionMethod method);
  Candidate MakeCandidate(size_t node) const;
  // Empty nodes past their pool's consolidateAfter, by savings.
  std::vector<Candidate> EmptinessCandidates();
  // Non-empty nodes of pools that consolidate when underutilized, past
  // consolidateAfter, by savings.
  std::vector<Candidate> ConsolidationCandidates();

  // Delete when the pods fit on the nodes left; replace by one strictly
  // cheaper node of another group otherwise; nullopt with `*why` else.
  std::optional<DisruptionCommand> Consolidate(
      const std::vector<Candidate>& candidates, DisruptionMethod method,
      std::string* why);

  DisruptionCommand Command(DisruptionMethod method, DisruptionReason reason,
                            const std::vector<Candidate>& candidates) const;
  // Removing these nodes would take a group below its min size: why.
  static std::optional<std::string> BelowMinSize(
      const std::vector<Candidate>& candidates);

  void Block(size_t node, DisruptionMethod method, std::string reason,
             std::string pod = "");
  void BlockByBudget(const Candidate& c, DisruptionMethod method,
                     DisruptionReason reason);
  void CountEligible(DisruptionReason reason, size_t count) {
    plan_->eligible[reason] = static_cast<int64_t>(count);
  }

 private:
  struct PoolCount {
    const NodePool* pool = nullptr;
    int64_t nodes = 0;
    int64_t disrupting = 0;
  };
  struct Blocker {
    std::string reason;
    std::string pod;  // when a pod is the reason
  };

  void CountPoolNodes();
  const std::optional<Blocker>& NodeBlocker(size_t node);
  std::optional<Blocker> FindNodeBlocker(size_t node) const;
  bool Consolidatable(const Candidate& c) const;
  std::string WindowReason(const Candidate& c) const;

  const DisruptionInput& input_;
  const DisruptionOptions& options_;
  DisruptionPlan* plan_;
  DisruptionSimulator sim_;
  std::map<std::string, PoolCount> counts_;
  std::map<std::pair<std::string, DisruptionReason>, int64_t> allowed_;
  std::set<size_t> blocked_once_;
  std::map<size_t, std::optional<Blocker>> blockers_;
};

// Highest price over disruption cost first; ties by node name.
void SortBySavings(const std::vector<NodeState>& nodes,
                   std::vector<Candidate>* candidates);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_CONTEXT_H_
