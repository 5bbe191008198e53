// What the node-scale loop's parts (the priority source, the disruption
// stage) work with: the executor their writes go through, the reporter
// they tell people through, the store and the clock they read, the loop's
// options and its memory (plan/loop_memory.h). The loop owns them all; a
// part holds this and nothing else of the loop.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_CONTEXT_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_CONTEXT_H_

#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/report/node_scale_reporter.h"
#include "nodescale/run/action_executor.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/loop_options.h"

namespace propscaler::nodescale {

struct LoopContext {
  ActionExecutor* executor;
  const NodeScaleReporter* reporter;
  const LiveObjectStore* state;
  const Clock* clock;
  const LoopOptions* options;
  LoopMemory* memory;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_CONTEXT_H_
