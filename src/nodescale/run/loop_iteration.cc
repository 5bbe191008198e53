#include "nodescale/run/loop_iteration.h"

namespace propscaler::nodescale {

std::map<std::string, const LivePod*> LoopIteration::PendingPodsByKey() const {
  std::map<std::string, const LivePod*> pending;
  for (const LivePod& pod : pods) {
    if (IsPending(pod.state)) pending[pod.state.Key()] = &pod;
  }
  return pending;
}

}  // namespace propscaler::nodescale
