#include "nodescale/run/loop_runner.h"

#include <glog/logging.h>

#include "runtime/cycle_driver.h"

namespace propscaler::nodescale {

void RunEveryScanInterval(NodeScaleLoop* loop, const LiveObjectStore* state,
                          const std::function<bool()>& may_act,
                          Duration interval, HealthState* health,
                          StopSignal* stop) {
  runtime::CycleDriver driver(stop->clock(), health,
                              {.poll_period = interval,
                               .cycle_on_change = false,
                               .ready_check = std::chrono::milliseconds(100)});
  driver.Run(
      stop,
      {.ready =
           [state] {
             return state->Synced()
                        ? Status::Ok()
                        : Status::Unavailable(
                              "waiting for the first list of pods and nodes");
           },
       .cycle =
           [loop, &may_act](TimePoint, const std::string&) {
             if (!may_act()) return Status::Ok();  // a healthy follower
             Status status = loop->RunOnce();
             LOG_IF(WARNING, !status.ok())
                 << "iteration failed: " << status.message();
             return status;
           }});
}

}  // namespace propscaler::nodescale
