// The last step of a scale-down pass, as Cluster Autoscaler's scale-down
// budget takes it: of the planned removals, those whose nodes have been
// unneeded for the unneeded time and are not already being deleted; the
// empty ones in bulk and the first busy ones to drain, in the same pass, at
// most --max-scale-down-parallelism in all, of them at most
// --max-drain-parallelism busy (and at most --max-empty-bulk-delete empty).
// Any subset of the plan's removals may go together: the plan moved each
// busy node's pods to nodes it does not remove. Nothing while a removal
// still drains (CA would start more drains up to its budget; propscaler
// waits) or a scale-down delay holds. Pure: the caller passes the time.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_REMOVAL_CHOICE_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_REMOVAL_CHOICE_H_

#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/scale_down/drain.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_down/scale_down_timers.h"

namespace propscaler::nodescale {

// How many nodes one pass may remove (CA's flags, CA's defaults).
struct ScaleDownParallelism {
  int max_empty_bulk_delete = 10;
  int max_scale_down_parallelism = 10;
  int max_drain_parallelism = 1;
};

struct RemovalChoice {
  std::vector<NodeRemoval> removals;  // empty: none this pass
  std::string waiting;                // why none, for the log
};

// The planned removals' nodes: the unneeded nodes the timers track.
std::vector<std::string> UnneededNodes(const ScaleDownPlan& plan);

RemovalChoice ChooseRemovals(const ScaleDownPlan& plan,
                             const ScaleDownTimers& timers,
                             const RemovalsInFlight& in_flight,
                             const ScaleDownParallelism& parallelism,
                             TimePoint now);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_DOWN_REMOVAL_CHOICE_H_
