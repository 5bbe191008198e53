// Feeds the pending-pod batch from the pod watch: a pod the scheduler marks
// Unschedulable (one not already known to be) joins the batch and wakes
// whoever waits on the clock for Due() to change. Expendable pods (priority
// below --expendable-pods-priority-cutoff) never do. So does a new
// CapacityBuffer, or a new generation of one. Thread-safe.
//
// The clock is never read or notified while mutex_ is held: a virtual
// clock asks Due() (which takes mutex_) under its own lock.
#ifndef PROPSCALER_NODESCALE_RUN_PENDING_POD_TRIGGER_H_
#define PROPSCALER_NODESCALE_RUN_PENDING_POD_TRIGGER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/mutex.h"
#include "kube/controllers/reflector.h"
#include "kube/model/capacity_buffer.h"
#include "kube/model/live_objects.h"
#include "nodescale/plan/scale_up/pending_batch.h"

namespace propscaler::nodescale {

class PendingPodTrigger {
 public:
  PendingPodTrigger(const Clock* clock, BatchWindow window,
                    int32_t expendable_cutoff)
      : clock_(clock), expendable_cutoff_(expendable_cutoff), batch_(window) {}

  // `sink`, watched: what passes through it feeds the batch.
  kube::ReflectorSink<kube::LivePod> Wrap(kube::ReflectorSink<kube::LivePod>);
  kube::ReflectorSink<kube::CapacityBuffer> WrapBuffers(
      kube::ReflectorSink<kube::CapacityBuffer>);
  // When the open batch closes; nullopt while none is open.
  std::optional<TimePoint> Due() const EXCLUDES(mutex_);
  // Closes the open batch; returns how many pods it held.
  size_t Close() EXCLUDES(mutex_);

 private:
  bool Unschedulable(const kube::LivePod& pod) const;
  // Whether `pod` opened or extended the batch.
  bool Saw(const kube::LivePod& pod, TimePoint now) REQUIRES(mutex_);
  void Relisted(const std::vector<kube::LivePod>& pods, bool first)
      EXCLUDES(mutex_);
  void ListComplete() EXCLUDES(mutex_);
  void SawBuffer(const kube::CapacityBuffer& buffer) EXCLUDES(mutex_);
  // Adds a finished list's entries to the batch: only once the list is
  // visible in the store, or an iteration between could spend the batch
  // without seeing them.
  void OpenFor(std::vector<std::string> keys) EXCLUDES(mutex_);

  const Clock* clock_;
  const int32_t expendable_cutoff_;
  mutable Mutex mutex_;
  PendingBatch batch_ GUARDED_BY(mutex_);
  std::set<std::string> unschedulable_ GUARDED_BY(mutex_);  // by uid
  std::set<std::string> relisted_ GUARDED_BY(mutex_);  // of a list under way
  std::map<std::string, int64_t> buffer_generations_ GUARDED_BY(mutex_);
  // Of the lists under way: pods that open the batch, buffers staged.
  std::vector<std::string> listed_pods_ GUARDED_BY(mutex_);
  std::vector<kube::CapacityBuffer> listed_buffers_ GUARDED_BY(mutex_);
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_PENDING_POD_TRIGGER_H_
