#include "nodescale/run/loop_runner.h"

#include <glog/logging.h>

#include "runtime/cycle_driver.h"

namespace propscaler::nodescale {

constexpr char kBatchCause[] = "pending pods";

void RunEveryScanInterval(NodeScaleLoop* loop, PendingPodTrigger* pending,
                          const std::function<bool()>& may_act,
                          const std::function<Status()>& staleness,
                          Duration interval, HealthState* health,
                          StopSignal* stop) {
  runtime::CycleDriver driver(stop->clock(), health,
                              {.poll_period = interval,
                               .cycle_on_change = false,
                               .ready_check = std::chrono::milliseconds(100)});
  runtime::CycleHooks hooks{
      .ready = [loop] { return loop->ReadyToIterate(); },
      .cycle =
          [loop, pending](TimePoint, const std::string& cause) {
            // Every iteration scales up for all pending pods: the batch is
            // spent either way.
            const size_t batched = pending != nullptr ? pending->Close() : 0;
            const bool batch = cause == kBatchCause;
            LOG_IF(INFO, batch) << "a batch of " << batched
                                << " pending pods closed: scaling up";
            Status status = batch ? loop->RunScaleUp() : loop->RunOnce();
            LOG_IF(WARNING, !status.ok())
                << "iteration failed: " << status.message();
            return status;
          },
      .staleness = staleness,
      // A follower watches and waits; its batch stays open until it leads.
      .may_act = may_act};
  if (pending != nullptr) {
    hooks.due = [pending, &may_act] {
      return may_act() ? pending->Due() : std::nullopt;
    };
    hooks.due_cause = kBatchCause;
  }
  driver.Run(stop, hooks);
}

}  // namespace propscaler::nodescale
