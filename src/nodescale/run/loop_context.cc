#include "nodescale/run/loop_context.h"

#include <utility>

#include "common/utc_time.h"

namespace propscaler::nodescale {

bool NoteIncrease(const LoopContext& context, const GroupIncrease& increase,
                  const NodeGroup& group, const Status& status, TimePoint now) {
  if (status.code() == StatusCode::kConflict) return false;
  if (!status.ok()) {
    context.reporter->ScaleUpFailed(group);
    context.memory->backoff.Fail(group.name, now,
                                 {"cloudProviderError", status.message()});
    return false;
  }
  context.memory->provision.ScaledUp(group.name, now);
  context.reporter->ScaleUpRequested(group, increase.delta);
  context.memory->last_scale_up =
      DescribeIncrease(increase, group) + " at " + FormatMicroTime(now);
  return true;
}

void RemoveNodes(const LoopContext& context, std::vector<RemovalTarget> targets,
                 bool all_or_nothing, const LoopIteration& it) {
  const ActionOutcome outcome = context.executor->Run(
      StartRemoval{std::move(targets), all_or_nothing}, it.View());
  context.memory->NoteRemovals(outcome.removal, it.now);
}

}  // namespace propscaler::nodescale
