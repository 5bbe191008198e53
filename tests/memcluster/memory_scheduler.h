// A stand-in for kube-scheduler in the in-memory cluster, in virtual time:
// every second it marks each pending pod that fits no node PodScheduled=False
// (reason Unschedulable), as the scheduler does within milliseconds, and
// binds a pod to a node it fits once it has fitted for `bind_delay`, the time a
// slow scheduler, an image-pull backlog or a node whose network is not ready
// yet takes. Fitting: the node is Ready, not cordoned, has no NoSchedule or
// NoExecute taint, and has the pod's cpu and memory requests free. Which node:
// the first by name, or, as kube-scheduler's default scoring (NodeResourcesFit,
// LeastAllocated) spreads, the one with the most cpu and memory left in
// proportion (ties by name). A test helper, not a scheduler.
#ifndef PROPSCALER_TESTS_MEMCLUSTER_MEMORY_SCHEDULER_H_
#define PROPSCALER_TESTS_MEMCLUSTER_MEMORY_SCHEDULER_H_

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "common/clock.h"
#include "memcluster/memory_cluster.h"

namespace propscaler::memcluster {

class MemoryScheduler {
 public:
  enum class Placement { kFirstFit, kLeastAllocated };

  MemoryScheduler(MemoryCluster* cluster, Duration bind_delay,
                  Placement placement = Placement::kFirstFit);
  ~MemoryScheduler();  // stops its thread

  // One pass now (the thread makes one every second). Thread-safe: a test
  // may call it from a hook on another thread.
  void Schedule();

 private:
  void ScheduleLocked();

  std::mutex mutex_;
  const Placement placement_;
  MemoryCluster* cluster_;
  const Duration bind_delay_;
  std::map<std::string, TimePoint> fits_since_;  // pod key -> first fit
  int64_t seen_version_ = -1;  // the store's, when the last pass listed
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace propscaler::memcluster

#endif  // PROPSCALER_TESTS_MEMCLUSTER_MEMORY_SCHEDULER_H_
