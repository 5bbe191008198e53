// A proportional mode's parts, wired as the process runs them, in one shape
// for replica and vertical mode: the cycle driver; the mode's watches, each
// change a cycle soon (started and joined on one runtime::WatchSet); its
// reporter (metrics, Events, the status board; no Events in a dry run);
// and its autoscaler between them. app/ runs them against the API server;
// the scenario tests run the same parts on an in-memory cluster.
#ifndef PROPSCALER_APP_MODE_PARTS_H_
#define PROPSCALER_APP_MODE_PARTS_H_

#include <string>
#include <utility>

#include "common/clock.h"
#include "common/health_state.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/controllers/event_recorder.h"
#include "runtime/cycle_driver.h"
#include "runtime/loop.h"
#include "runtime/watch_set.h"

namespace propscaler {

template <typename Options, typename Watches, typename Reporter,
          typename Autoscaler>
class ModeParts : public runtime::Loop {
 public:
  // `events` may be null (no Events). The watches and the autoscaler each
  // take the API roles they use.
  ModeParts(typename Watches::Clients reads,
            typename Autoscaler::Clients writes, const Clock* clock,
            Options options, HealthState* health, kube::EventRecorder* events,
            typename Reporter::Board* board)
      : driver_(clock, health,
                {options.poll_period, options.max_sync_failures}),
        watches_(reads, clock, options,
                 [this](const std::string& cause) { driver_.Notify(cause); }),
        reporter_(clock, options.dry_run ? nullptr : events, board, options),
        autoscaler_(writes, clock, std::move(options), &watches_, &driver_,
                    &reporter_) {
    watches_.AddTo(&watch_set_);
  }

  int Run(StopSignal* stop) override {
    watch_set_.Start(stop);
    const int exit_code = autoscaler_.Run(stop);
    stop->Stop();
    watch_set_.Join();
    return exit_code;
  }

  Status RunOnce() override {
    if (Status listed = watch_set_.ListOnce(); !listed.ok()) return listed;
    return autoscaler_.RunOnce();
  }

 private:
  runtime::CycleDriver driver_;
  Watches watches_;
  Reporter reporter_;
  Autoscaler autoscaler_;
  runtime::WatchSet watch_set_;
};

}  // namespace propscaler

#endif  // PROPSCALER_APP_MODE_PARTS_H_
