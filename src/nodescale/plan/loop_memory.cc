#include "nodescale/plan/loop_memory.h"

#include "common/utc_time.h"

namespace propscaler::nodescale {

void LoopMemory::NoteRemovals(const RemovalProgress& progress, TimePoint now) {
  if (progress.failed > 0) timers.Failed(now);
  if (!progress.any_deleted()) return;
  timers.Deleted(now);
  last_scale_down = progress.deleted.back() + " at " + FormatMicroTime(now);
}

}  // namespace propscaler::nodescale
