#include "nodescale/plan/scale_down/removal_choice.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

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
                             const ScaleDownParallelism& parallelism,
                             TimePoint now) {
  RemovalChoice choice;
  if (!in_flight.draining.empty()) {
    choice.waiting = "waiting for evicted pods to leave " + in_flight.draining;
    return choice;
  }
  if (std::optional<std::string> blocked = timers.Blocked(now)) {
    choice.waiting = *blocked;
    return choice;
  }
  std::set<std::string> unready;
  std::map<std::string, Duration> waits;
  for (const NodeRemoval& removal : plan.removals) {
    if (removal.unready) unready.insert(removal.node);
    if (removal.wait) waits[removal.node] = *removal.wait;
  }
  const std::vector<std::string> due =
      timers.RemovableNow(UnneededNodes(plan), now, unready, waits);
  const int max_empty = std::min(parallelism.max_empty_bulk_delete,
                                 parallelism.max_scale_down_parallelism);
  std::vector<NodeRemoval> empty, busy;
  for (const NodeRemoval& removal : plan.removals) {
    if (std::find(due.begin(), due.end(), removal.node) == due.end() ||
        in_flight.deleting.contains(removal.node)) {
      continue;
    }
    if (removal.reason == NodeRemoval::Reason::kEmpty) {
      if (static_cast<int>(empty.size()) < max_empty) empty.push_back(removal);
    } else {
      busy.push_back(removal);
    }
  }
  // Empty nodes first, as CA's budget counts them.
  const int busy_allowed = std::min(
      parallelism.max_drain_parallelism,
      parallelism.max_scale_down_parallelism - static_cast<int>(empty.size()));
  if (static_cast<int>(busy.size()) > busy_allowed) {
    busy.resize(std::max(busy_allowed, 0));
  }
  choice.removals = std::move(empty);
  choice.removals.insert(choice.removals.end(), busy.begin(), busy.end());
  if (choice.removals.empty()) choice.waiting = "no unneeded node is due";
  return choice;
}

}  // namespace propscaler::nodescale
