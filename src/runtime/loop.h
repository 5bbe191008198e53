// A mode's control loop on the runtime, as app/loop_runner.h runs it:
// replica and vertical mode's parts (app/mode_parts.h) each watch what they
// read, decide, and write on a runtime::CycleDriver.
#ifndef PROPSCALER_RUNTIME_LOOP_H_
#define PROPSCALER_RUNTIME_LOOP_H_

#include "common/status.h"
#include "common/stop_signal.h"

namespace propscaler::runtime {

class Loop {
 public:
  virtual ~Loop() = default;

  // Watches and cycles until `stop` (which waits on the loop's clock);
  // returns the exit code: 0, or 1 after --max-sync-failures consecutive
  // failed cycles.
  virtual int Run(StopSignal* stop) = 0;

  // Reads everything once (no watch) and runs one cycle: --once.
  virtual Status RunOnce() = 0;
};

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_LOOP_H_
