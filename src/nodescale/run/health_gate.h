// The node-scale loop's health gate: Cluster Autoscaler's "Cluster is not
// ready for autoscaling". While too many nodes are Unready
// (plan/health/node_health.h) the iteration stops after saying so, once in
// the log, and in an Event and the metrics, and the unneeded nodes' timers
// are forgotten, as Cluster Autoscaler does.
#ifndef PROPSCALER_NODESCALE_RUN_HEALTH_GATE_H_
#define PROPSCALER_NODESCALE_RUN_HEALTH_GATE_H_

#include "common/status.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class HealthGate {
 public:
  explicit HealthGate(LoopContext context) : c_(context) {}

  // OK, or why the iteration stops (kUnavailable), for /status.
  Status Check(const LoopIteration& it);

 private:
  LoopContext c_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_HEALTH_GATE_H_
