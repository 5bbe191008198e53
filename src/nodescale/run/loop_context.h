// What every stage of the node-scale loop works with: the executor its
// writes go through, the reporter it tells people through, the store and
// the clock it reads, the loop's options and its memory (plan/
// loop_memory.h). The loop owns them all; a stage holds this and nothing
// else of the loop.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_CONTEXT_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_CONTEXT_H_

#include <vector>

#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/run/action_executor.h"
#include "nodescale/run/loop_iteration.h"
#include "nodescale/run/loop_options.h"
#include "nodescale/report/node_scale_reporter.h"

namespace propscaler::nodescale {

struct LoopContext {
  ActionExecutor* executor;
  const NodeScaleReporter* reporter;
  const LiveObjectStore* state;
  const Clock* clock;
  const LoopOptions* options;
  LoopMemory* memory;
};

// Hands the nodes to the executor's drain as one set (all tainted before
// any pod is evicted); the memory is told what its first pass did.
// What an IncreaseSize of `increase` came to, in the memory and the
// reporter: asked for (the group's capacity followed, /status's last
// scale-up), refused (the group backed off), or a conflict (another
// writer's change: no backoff, the next iteration plans again). Whether it
// was asked for.
bool NoteIncrease(const LoopContext& context, const GroupIncrease& increase,
                  const NodeGroup& group, const Status& status, TimePoint now);

void RemoveNodes(const LoopContext& context, std::vector<RemovalTarget> targets,
                 bool all_or_nothing, const LoopIteration& it);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_CONTEXT_H_
