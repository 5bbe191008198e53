// Nodes as bins together with the inter-pod topology over them, kept in
// step: the one place where the planners put pods on nodes, take them off,
// and place the pending pods the scheduler would place (Cluster Autoscaler's
// filter-out-schedulable) before they plan. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_BIN_PLACEMENT_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_BIN_PLACEMENT_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "nodescale/plan/simulation/node_bins.h"
#include "nodescale/plan/simulation/snapshot.h"
#include "nodescale/plan/simulation/topology.h"

namespace propscaler::nodescale {

// The pods that wait for a node and would make the autoscaler act: not
// bound, not finished, not a DaemonSet's (those wait for their own node).
std::vector<const PodState*> PendingPods(const PodList& pods);

class BinPlacement {
 public:
  // One bin per node, in order (BinsFromNodes). The topology is kept only
  // when some pod has inter-pod constraints. (Pointers into `nodes` and
  // `pods`: never temporaries.)
  BinPlacement(const std::vector<NodeState>& nodes, const PodList& pods);
  BinPlacement(const std::vector<NodeState>& nodes, PodList&& pods) = delete;

  // An upcoming or simulated node after the others; returns its index.
  size_t AddBin(Bin bin);

  std::vector<Bin>& bins() { return bins_; }
  const std::vector<Bin>& bins() const { return bins_; }
  bool use_topology() const { return use_topology_; }
  // Meaningful only with use_topology().
  Topology& topology() { return topology_; }

  // Every predicate: the bin's (BinAccepts) and the topology's.
  bool Accepts(size_t bin, const PodState& pod) const;
  void Place(const PodState& pod, size_t bin);
  void Remove(const PodState& pod, size_t bin);
  // Takes a bin out of the topology's domains (a node being removed), or
  // back in.
  void SetGone(size_t bin, bool gone);

  // First fit from the last bin this returned, wrapping round, so that a
  // pass over many pods does not rescan the full bins each time; bins
  // `usable(index)` says no to are skipped.
  template <typename Usable>
  std::optional<size_t> NextFit(const PodState& pod, const Usable& usable) {
    const bool constrained = Constrained(pod);
    for (size_t step = 0; step < bins_.size(); ++step) {
      const size_t i = (hint_ + step) % bins_.size();
      if (!usable(i) || !Fits(i, pod, constrained)) continue;
      hint_ = i;
      return i;
    }
    return std::nullopt;
  }
  std::optional<size_t> NextFit(const PodState& pod) {
    return NextFit(pod, [](size_t) { return true; });
  }
  void RestartNextFit() { hint_ = 0; }

  struct PendingResult {
    std::vector<const PodState*> placed;
    std::vector<const PodState*> left;  // fit no bin
  };
  // Each pod, in order, on the first bin that accepts it. A pod of the
  // same scheduling class as an earlier one starts where that one went
  // (bins only fill up), unless the topology could make it differ.
  PendingResult PlacePending(const std::vector<const PodState*>& pods);

 private:
  // Whether the topology can refuse `pod` anywhere: asked once per pod,
  // not once per bin.
  bool Constrained(const PodState& pod) const {
    return use_topology_ && topology_.Matters(pod);
  }
  bool Fits(size_t bin, const PodState& pod, bool constrained) const {
    return BinAccepts(bins_[bin], pod) &&
           (!constrained || topology_.Allows(pod, bin));
  }

  std::vector<Bin> bins_;
  const bool use_topology_;
  Topology topology_;  // bin i is topology node i, when used
  size_t hint_ = 0;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_BIN_PLACEMENT_H_
