// The last step of a scale-down pass, as Cluster Autoscaler's
// ScaleDownSetProcessor takes it: of the planned removals, those whose nodes
// have been unneeded for the unneeded time and are not already being
// deleted; the empty ones in bulk (at most --max-empty-bulk-delete), else
// the first busy one alone. Nothing while a removal still drains or a
// scale-down delay holds. Pure: the caller passes the time.
#ifndef PROPSCALER_NODESCALE_PLAN_REMOVAL_CHOICE_H_
#define PROPSCALER_NODESCALE_PLAN_REMOVAL_CHOICE_H_

#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/scale_down.h"
#include "nodescale/plan/scale_down_timers.h"

namespace propscaler::nodescale {

// What is being removed already.
struct RemovalsInFlight {
  std::string draining;  // a node still draining ("" when none)
  // Handed to the provider and still registered (Cluster API keeps the
  // node until its machine goes): not to be removed, and replicas lowered,
  // twice.
  std::set<std::string> deleting;
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
                             int max_empty_bulk_delete, TimePoint now);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_REMOVAL_CHOICE_H_
