// The one start-up path of every mode, once its parts are built: --once runs
// one cycle (exit 0, or 1 when it fails) where the mode has one; otherwise
// the health server on --healthz-port (2 when its port cannot be bound),
// SIGTERM and SIGINT wired to the stop signal, the start-up lines, leader
// election where the mode elects, and the loop until a signal.
#ifndef PROPSCALER_APP_LOOP_RUNNER_H_
#define PROPSCALER_APP_LOOP_RUNNER_H_

#include <functional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/health_state.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/controllers/leader_election.h"

namespace propscaler {

struct LoopRun {
  std::function<Status()> once;              // empty: --once is not taken
  std::function<int(StopSignal*)> run;       // returns the exit code
  std::function<std::string()> status_page;  // empty: no /status
  std::vector<std::string> start_lines;      // logged once serving
  kube::LeaderElector* elector = nullptr;    // run beside the loop
};

int RunLoop(const Clock& clock, const HealthState* health, const LoopRun& loop);

}  // namespace propscaler

#endif  // PROPSCALER_APP_LOOP_RUNNER_H_
