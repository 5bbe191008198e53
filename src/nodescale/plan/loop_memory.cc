#include "nodescale/plan/loop_memory.h"

#include "common/utc_time.h"

namespace propscaler::nodescale {

void LoopMemory::NoteRemovals(const RemovalProgress& progress, TimePoint now) {
  if (progress.failed > 0) timers.Failed(now);
  if (!progress.any_deleted()) return;
  timers.Deleted(now);
  last_scale_down = progress.deleted.back() + " at " + FormatMicroTime(now);
}

void LoopMemory::NoteGroupsForScaleUp(const SharedNodes& nodes,
                                      const GroupOfNode& group_of,
                                      const std::vector<Readiness>& readiness,
                                      const std::vector<NodeGroup>& groups,
                                      const NodeHealthConfig& health,
                                      TimePoint now) {
  scale_up.backed_off_groups = backoff.BackedOffGroups(now);
  scale_up.unhealthy_groups.clear();
  const std::map<std::string, ReadinessCounts> by_group =
      ReadinessByGroup(nodes, group_of, readiness);
  for (const NodeGroup& group : groups) {
    auto counts = by_group.find(group.name);
    if (counts == by_group.end()) continue;
    if (std::optional<std::string> why =
            GroupUnhealthy(counts->second, group.target_size,
                           provision.Upcoming(group.name), health)) {
      scale_up.unhealthy_groups[group.name] = *why;
    }
  }
}

}  // namespace propscaler::nodescale
