// Cluster Autoscaler's soft taints: the DeletionCandidate (PreferNoSchedule)
// taint put on each unneeded node and taken off each node needed again,
// at most --max-bulk-soft-taint-count of them in one pass and for at most
// --max-bulk-soft-taint-time (0: none at all); the rest wait for the next
// pass. A node chosen for removal in this pass gets ToBeDeleted instead.
// Pure: the executor passes how many it changed and how long that took.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SOFT_TAINTS_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SOFT_TAINTS_H_

#include <set>
#include <string_view>
#include <vector>

#include "common/clock.h"

namespace propscaler::nodescale {

struct SoftTaintBudget {
  int max_count = 10;                           // --max-bulk-soft-taint-count
  Duration max_time = std::chrono::seconds(3);  // --max-bulk-soft-taint-time
  // Whether one more taint may change after `changed` took `elapsed`.
  bool Allows(int changed, Duration elapsed) const;
};

struct SoftTaintNode {
  std::string_view name;
  bool tainted = false;   // has the DeletionCandidate taint
  bool unneeded = false;  // the scale-down timers' verdict
};

struct SoftTaintChange {
  size_t node = 0;     // index into the nodes given
  bool taint = false;  // put on (true) or take off
};

// The changes due, in the nodes' order.
std::vector<SoftTaintChange> SoftTaintChanges(
    const std::vector<SoftTaintNode>& nodes,
    const std::set<std::string_view>& removing);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_SOFT_TAINTS_H_
