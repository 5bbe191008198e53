#include "nodescale/run/loop_runner.h"

#include <glog/logging.h>

namespace propscaler::nodescale {

void RunEveryScanInterval(NodeScaleLoop* loop, const LiveObjectStore* state,
                          const std::function<bool()>& may_act,
                          Duration interval, HealthState* health,
                          StopSignal* stop) {
  while (!stop->stopped()) {
    health->Heartbeat();
    if (!state->Synced()) {
      health->CycleFinished(
          Status::Unavailable("waiting for the first list of pods and nodes"));
    } else if (may_act()) {
      Status status = loop->RunOnce();
      LOG_IF(WARNING, !status.ok()) << "iteration failed: " << status.message();
      health->CycleFinished(status);
    } else {
      health->CycleFinished(Status::Ok());  // a healthy follower
    }
    if (stop->WaitFor(state->Synced() ? interval
                                      : std::chrono::milliseconds(100))) {
      return;
    }
  }
}

}  // namespace propscaler::nodescale
