// SIGTERM and SIGINT stop the daemon: they are blocked in every thread and
// taken by one thread that sets the stop flag, so all waits end at once.
#ifndef PROPSCALER_COMMON_STOP_ON_SIGNALS_H_
#define PROPSCALER_COMMON_STOP_ON_SIGNALS_H_

#include <functional>
#include <thread>

#include "common/stop_signal.h"

namespace propscaler {

// Call before starting other threads (they inherit the blocked mask).
void StopOnSignals(StopSignal* stop);

// Starts `body` on a thread with SIGTERM and SIGINT blocked, for a thread
// that may start before StopOnSignals (which would otherwise be handed
// them, and the process die of them).
std::thread ThreadWithoutStopSignals(std::function<void()> body);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_STOP_ON_SIGNALS_H_
