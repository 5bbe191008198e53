#include "nodescale/run/loop_context.h"

#include <utility>

namespace propscaler::nodescale {

void RemoveNodes(const LoopContext& context, std::vector<RemovalTarget> targets,
                 bool all_or_nothing, const LoopIteration& it) {
  const ActionOutcome outcome = context.executor->Run(
      StartRemoval{std::move(targets), all_or_nothing}, it.View());
  context.memory->NoteRemovals(outcome.removal, it.now);
}

}  // namespace propscaler::nodescale
