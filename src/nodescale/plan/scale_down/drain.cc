#include "nodescale/plan/scale_down/drain.h"

#include <algorithm>

namespace propscaler::nodescale {

bool MovesWithDrain(const PodState& pod) {
  return !pod.terminated && !IsDaemonSetPod(pod) && !IsMirrorPod(pod);
}

int64_t EvictionGraceSeconds(const PodState& pod,
                             int64_t max_graceful_termination_seconds) {
  return std::min(pod.termination_grace_seconds,
                  max_graceful_termination_seconds);
}

DrainStep NextDrainStep(size_t pods_left, TimePoint deadline, TimePoint now) {
  if (pods_left == 0) return DrainStep::kDelete;
  return now < deadline ? DrainStep::kWait : DrainStep::kFail;
}

}  // namespace propscaler::nodescale
