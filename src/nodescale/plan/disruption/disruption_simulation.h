// The scheduling simulation behind every disruption method: take some nodes
// away, put their pods on the nodes left (pending pods already placed where
// they fit, as the scheduler would), and find which group could take what
// is left on new nodes, cheapest first. Every constraint the scale-up
// planner honours applies (resources, selectors, affinity, taints, spread,
// host ports). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_SIMULATION_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_SIMULATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nodescale/plan/disruption/disruption_input.h"
#include "nodescale/plan/simulation/bin_placement.h"

namespace propscaler::nodescale {

// New nodes of one group that would take the pods left over.
struct NewNodes {
  std::string group;
  int64_t count = 0;
  double price_per_hour = 0;  // of all `count` nodes
};

struct SimulationResult {
  bool ok = false;  // every pod has a place (on old or on new nodes)
  // When pods are left over: groups that take them all, cheapest first.
  std::vector<NewNodes> options;
  std::string failure;  // when !ok: which pod has no place
};

// The pool a group belongs to (the default pool when it names none).
const NodePool& PoolOf(const DisruptionInput& input, std::string_view group);
// The group's price per node-hour; 0 when it declares none.
double PriceOf(const NodeGroup& group);

class DisruptionSimulator {
 public:
  explicit DisruptionSimulator(const DisruptionInput& input);

  // Moves the pods of `candidates` (indexes of snapshot nodes). With
  // `gate_destinations`, a node whose pods changed within its pool's
  // consolidateAfter takes none (Karpenter v1.14). New nodes: at most
  // `max_new_nodes` of one group. Leaves the state as it found it.
  SimulationResult Simulate(const std::vector<size_t>& candidates,
                            bool gate_destinations, int64_t max_new_nodes);

  const std::vector<const PodState*>& PodsOn(size_t node) const {
    return placement_.bins()[node].pods;
  }
  const NodeGroup* GroupOfNode(size_t node) const { return node_group_[node]; }
  // Null for a node of no group.
  const NodePool* PoolOfNode(size_t node) const { return node_pool_[node]; }

 private:
  struct GroupShape {
    const NodeGroup* group = nullptr;
    NodeTemplate node;
    Resources free;
  };
  std::vector<NewNodes> NewNodeOptions(const std::vector<const PodState*>& pods,
                                       int64_t max_new_nodes) const;

  const DisruptionInput& input_;
  // Mutable: an estimate of new nodes places into its topology and takes
  // it back.
  mutable BinPlacement placement_;  // bin i is snapshot node i
  std::vector<const NodeGroup*> node_group_;
  std::vector<const NodePool*> node_pool_;
  // Within its pool's consolidateAfter window: takes no pods when gated.
  std::vector<bool> in_window_;
  std::vector<bool> gone_;
  std::vector<GroupShape> shapes_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DISRUPTION_SIMULATION_H_
