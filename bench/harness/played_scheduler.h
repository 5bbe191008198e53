// What the soak plays in node-scale mode, where no kube-scheduler, node
// lifecycle controller or pod garbage collector runs beside the real
// kube-apiserver: every pass it lifts the not-ready taint of new Ready
// nodes, binds each pending pod of a namespace to a node of the group that
// holds no pod (one pod a node: the soak's pods take 3 of a node's 4
// cores) and is not being deleted, and deletes pods bound to a node that is
// gone, as the pod garbage collector does.
#ifndef PROPSCALER_BENCH_HARNESS_PLAYED_SCHEDULER_H_
#define PROPSCALER_BENCH_HARNESS_PLAYED_SCHEDULER_H_

#include <set>
#include <string>

#include "common/status.h"
#include "envtest/real_cluster.h"

namespace propscaler::bench {

struct SchedulerPass {
  int bound = 0;
  int orphans_deleted = 0;
};

class PlayedScheduler {
 public:
  PlayedScheduler(const envtest::RealCluster* cluster, std::string ns,
                  std::string node_selector)
      : cluster_(cluster),
        ns_(std::move(ns)),
        node_selector_(std::move(node_selector)) {}

  // One pass; an error (the server away) leaves the rest for the next.
  Result<SchedulerPass> Pass();

 private:
  const envtest::RealCluster* cluster_;
  const std::string ns_;
  const std::string node_selector_;
  std::set<std::string> untainted_;  // nodes whose not-ready taint is gone
};

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_PLAYED_SCHEDULER_H_
