// The drain's rules (run/removal_queue carries them out): what it holds
// (RemovalsInFlight), which of a node's pods it evicts, the grace each
// eviction gives, and when a draining node is deleted or its removal
// failed. Shared by Cluster Autoscaler's scale-down and Karpenter's
// disruption, whose nodes drain alike. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_DRAIN_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_DRAIN_H_

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "common/clock.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// What is being removed already.
struct RemovalsInFlight {
  std::string draining;  // a node still draining ("" when none)
  // Handed to the provider and still registered (Cluster API keeps the
  // node until its machine goes): not to be removed, and replicas lowered,
  // twice.
  std::set<std::string> deleting;
};

// DaemonSet, mirror and finished pods stay with the node; the rest move.
bool MovesWithDrain(const PodState& pod);

// The grace period an eviction gives the pod, as CA: its own, but no more
// than --max-graceful-termination-sec.
int64_t EvictionGraceSeconds(const PodState& pod,
                             int64_t max_graceful_termination_seconds);

// A draining node: deleted once no pod that needs eviction is left on it;
// failed when one still is at its deadline (--max-graceful-termination-sec
// after its taint).
enum class DrainStep { kDelete, kWait, kFail };
DrainStep NextDrainStep(size_t pods_left, TimePoint deadline, TimePoint now);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_DRAIN_H_
