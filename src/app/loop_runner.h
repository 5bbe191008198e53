// What replica and vertical mode do once their loop is built: --once runs
// one cycle (exit 0, or 1 when it fails); otherwise the health server on
// --healthz-port (2 when its port cannot be bound), the start-up lines, and
// the loop until SIGTERM or SIGINT.
#ifndef PROPSCALER_APP_LOOP_RUNNER_H_
#define PROPSCALER_APP_LOOP_RUNNER_H_

#include <functional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/health_state.h"
#include "common/status.h"
#include "common/stop_signal.h"

namespace propscaler {

struct LoopRun {
  std::function<Status()> once;
  std::function<int(StopSignal*)> run;  // returns the exit code
  std::function<std::string()> status_page;
  std::vector<std::string> start_lines;  // logged once serving
};

int RunLoop(const Clock& clock, const HealthState* health, const LoopRun& loop);

}  // namespace propscaler

#endif  // PROPSCALER_APP_LOOP_RUNNER_H_
