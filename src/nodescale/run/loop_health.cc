// The node-scale loop's health gate: Cluster Autoscaler's "Cluster is not
// ready for autoscaling".
#include <glog/logging.h>

#include "nodescale/plan/health/node_health.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_iteration.h"

namespace propscaler::nodescale {

bool NodeScaleLoop::ClusterHealthy(Iteration* it) {
  const ReadinessCounts counts = CountReadiness(it->readiness);
  reporter_->Readiness(counts);
  const ClusterHealth health =
      AssessClusterHealth(counts, options_.node_health);
  if (health.healthy) {
    LOG_IF(INFO, !last_unhealthy_.empty())
        << "cluster is healthy again: autoscaling resumes";
    last_unhealthy_.clear();
    return true;
  }
  LOG_IF(WARNING, health.reason != last_unhealthy_)
      << "Cluster is not ready for autoscaling: " << health.reason
      << "; nothing is scaled up or down until fewer nodes are Unready";
  last_unhealthy_ = health.reason;
  reporter_->ClusterUnhealthy(health.reason);
  // As Cluster Autoscaler, the unneeded nodes start over once it is healthy.
  timers_.SetUnneeded({}, it->now);
  WriteStatus(*it, Status::Unavailable("cluster is not ready for "
                                       "autoscaling: " +
                                       health.reason));
  return false;
}

}  // namespace propscaler::nodescale
