// Node-scale mode's outer loop, on the runtime's cycle driver: an iteration
// every --scan-interval while this replica may act (leader election), and,
// with a PendingPodTrigger, a scale-up as soon as a batch of pending pods
// closes (Karpenter's batching; scale-down keeps the scan rhythm). The
// health state is beaten and told each outcome, until `stop`. Waits on the
// stop signal's clock.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_RUNNER_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_RUNNER_H_

#include <functional>

#include "common/clock.h"
#include "common/health_state.h"
#include "common/stop_signal.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/pending_pod_trigger.h"

namespace propscaler::nodescale {

// `pending` may be null: iterations on the scan interval alone.
// `staleness`: OK, or why what the loop reads may be stale (its watches'
// failures), told to `health` every turn.
void RunEveryScanInterval(NodeScaleLoop* loop, PendingPodTrigger* pending,
                          const std::function<bool()>& may_act,
                          const std::function<Status()>& staleness,
                          Duration interval, HealthState* health,
                          StopSignal* stop);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_RUNNER_H_
