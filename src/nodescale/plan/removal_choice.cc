#include "nodescale/plan/removal_choice.h"

#include <algorithm>
#include <optional>

namespace propscaler::nodescale {

std::vector<std::string> UnneededNodes(const ScaleDownPlan& plan) {
  std::vector<std::string> nodes;
  nodes.reserve(plan.removals.size());
  for (const NodeRemoval& removal : plan.removals) {
    nodes.push_back(removal.node);
  }
  return nodes;
}

RemovalChoice ChooseRemovals(const ScaleDownPlan& plan,
                             const ScaleDownTimers& timers,
                             const RemovalsInFlight& in_flight,
                             int max_empty_bulk_delete, TimePoint now) {
  RemovalChoice choice;
  if (!in_flight.draining.empty()) {
    choice.waiting = "waiting for evicted pods to leave " + in_flight.draining;
    return choice;
  }
  if (std::optional<std::string> blocked = timers.Blocked(now)) {
    choice.waiting = *blocked;
    return choice;
  }
  const std::vector<std::string> due =
      timers.RemovableNow(UnneededNodes(plan), now);
  std::vector<NodeRemoval> empty;
  std::optional<NodeRemoval> busy;
  for (const NodeRemoval& removal : plan.removals) {
    if (std::find(due.begin(), due.end(), removal.node) == due.end() ||
        in_flight.deleting.contains(removal.node)) {
      continue;
    }
    if (removal.reason == NodeRemoval::Reason::kEmpty) {
      if (static_cast<int>(empty.size()) < max_empty_bulk_delete) {
        empty.push_back(removal);
      }
    } else if (!busy.has_value()) {
      busy = removal;
    }
  }
  if (!empty.empty()) {
    choice.removals = std::move(empty);
  } else if (busy.has_value()) {
    choice.removals = {*busy};
  } else {
    choice.waiting = "no unneeded node is due";
  }
  return choice;
}

}  // namespace propscaler::nodescale
