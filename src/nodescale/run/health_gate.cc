#include "nodescale/run/health_gate.h"

#include <glog/logging.h>

#include "nodescale/plan/health/node_health.h"

namespace propscaler::nodescale {

Status HealthGate::Check(const LoopIteration& it) {
  const ReadinessCounts counts = CountReadiness(it.readiness);
  c_.reporter->Readiness(counts);
  const ClusterHealth health =
      AssessClusterHealth(counts, c_.options->node_health);
  if (health.healthy) {
    LOG_IF(INFO, !c_.memory->last_unhealthy.empty())
        << "cluster is healthy again: autoscaling resumes";
    c_.memory->last_unhealthy.clear();
    return Status::Ok();
  }
  LOG_IF(WARNING, health.reason != c_.memory->last_unhealthy)
      << "Cluster is not ready for autoscaling: " << health.reason
      << "; nothing is scaled up or down until fewer nodes are Unready";
  c_.memory->last_unhealthy = health.reason;
  c_.reporter->ClusterUnhealthy(health.reason);
  // As Cluster Autoscaler, the unneeded nodes start over once it is healthy.
  c_.memory->timers.SetUnneeded({}, it.now);
  return Status::Unavailable("cluster is not ready for autoscaling: " +
                             health.reason);
}

}  // namespace propscaler::nodescale
