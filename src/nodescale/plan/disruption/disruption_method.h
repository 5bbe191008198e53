// Karpenter's disruption methods, one small type each: which nodes the
// method would take now (its candidates) and the command it computes from
// them, through the plan's shared DisruptionContext. PlanDisruption runs
// them in Karpenter's order and acts on the first command;
// ValidateCommand asks the command's own method for its candidates again.
// Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_METHOD_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_METHOD_H_

#include <memory>
#include <optional>
#include <vector>

#include "nodescale/plan/disruption/disruption_command.h"
#include "nodescale/plan/disruption/disruption_context.h"

namespace propscaler::nodescale::disruption {

class Method {
 public:
  virtual ~Method() = default;
  virtual DisruptionMethod id() const = 0;
  // The nodes it would take now, for a command's validation; empty for
  // the methods whose commands are not validated.
  virtual std::vector<Candidate> Candidates(
      DisruptionContext& /*context*/) const {
    return {};
  }
  virtual std::optional<DisruptionCommand> ComputeCommand(
      DisruptionContext& context) const = 0;
};

// Nodes past their pool's expireAfter, all at once: forceful (no budget,
// no opt-out, no PDB), a replacement first where their pods need one.
class Expiry : public Method {
 public:
  DisruptionMethod id() const override { return DisruptionMethod::kExpiry; }
  std::optional<DisruptionCommand> ComputeCommand(
      DisruptionContext& context) const override;
};

// Empty nodes, as many as the budgets allow, deleted together.
class Emptiness : public Method {
 public:
  DisruptionMethod id() const override { return DisruptionMethod::kEmptiness; }
  std::vector<Candidate> Candidates(DisruptionContext& context) const override;
  std::optional<DisruptionCommand> ComputeCommand(
      DisruptionContext& context) const override;
};

// One node whose spec no longer matches its group's, empty ones and the
// oldest first, replaced where its pods need it.
class Drift : public Method {
 public:
  DisruptionMethod id() const override { return DisruptionMethod::kDrift; }
  std::optional<DisruptionCommand> ComputeCommand(
      DisruptionContext& context) const override;
};

// N nodes deleted, or replaced by one strictly cheaper node: the largest
// prefix of the candidates that works, by binary search over at most
// DisruptionOptions::max_multi_node_candidates.
class MultiNodeConsolidation : public Method {
 public:
  DisruptionMethod id() const override { return DisruptionMethod::kMultiNode; }
  std::vector<Candidate> Candidates(DisruptionContext& context) const override;
  std::optional<DisruptionCommand> ComputeCommand(
      DisruptionContext& context) const override;
};

// One node deleted, or replaced by one strictly cheaper node; candidates
// taken round-robin across pools.
class SingleNodeConsolidation : public Method {
 public:
  DisruptionMethod id() const override { return DisruptionMethod::kSingleNode; }
  std::vector<Candidate> Candidates(DisruptionContext& context) const override;
  std::optional<DisruptionCommand> ComputeCommand(
      DisruptionContext& context) const override;
};

// Pools that opt in move a node of a lower-priority group to the
// highest-priority group that takes its pods now.
class BackToPreferred : public Method {
 public:
  DisruptionMethod id() const override { return DisruptionMethod::kPriority; }
  std::optional<DisruptionCommand> ComputeCommand(
      DisruptionContext& context) const override;
};

// Every method, in the order Karpenter runs them.
std::vector<std::unique_ptr<const Method>> MethodsInOrder();
std::unique_ptr<const Method> MethodFor(DisruptionMethod id);

}  // namespace propscaler::nodescale::disruption

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_METHOD_H_
