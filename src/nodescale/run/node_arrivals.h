// Nodes on their way in (plan/arrivals_pass.h decides): each node's
// readiness set on the iteration, and the capacity of the groups whose
// nodes did not come in time given up: its actions run, its nodes and
// target taken out of the iteration, with Cluster Autoscaler's Events
// (ScaleUpTimedOut; DeleteUnregistered or DeleteUnregisteredFailed for the
// instances that never registered).
#ifndef PROPSCALER_NODESCALE_RUN_NODE_ARRIVALS_H_
#define PROPSCALER_NODESCALE_RUN_NODE_ARRIVALS_H_

#include "nodescale/plan/arrivals_pass.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class NodeArrivals {
 public:
  explicit NodeArrivals(LoopContext context) : c_(context) {}

  // Sets it->readiness; gives up what PlanArrivals gives up.
  void Arrive(LoopIteration* it);

 private:
  void GiveUp(const CapacityGivenUp& given, LoopIteration* it);

  LoopContext c_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_NODE_ARRIVALS_H_
