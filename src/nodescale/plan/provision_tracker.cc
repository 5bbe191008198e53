#include "nodescale/plan/provision_tracker.h"

#include <algorithm>

namespace propscaler::nodescale {

std::vector<std::string> ProvisionTracker::Update(
    const std::vector<GroupProgress>& groups, TimePoint now) {
  std::map<std::string, Entry> next;
  std::vector<std::string> failed;
  for (const GroupProgress& group : groups) {
    const int64_t upcoming = std::max<int64_t>(0, group.target - group.ready);
    if (upcoming == 0) continue;
    Entry entry{upcoming, group.ready, now, now};
    auto previous = entries_.find(group.group);
    auto scaled_up = scaled_up_.find(group.group);
    if (previous != entries_.end()) {
      entry.requested = previous->second.requested;
      if (group.ready <= previous->second.ready) {
        entry.since = previous->second.since;
      }
    } else if (scaled_up != scaled_up_.end()) {
      entry.since = entry.requested = scaled_up->second;
    }
    if (now - entry.since >=
        group.max_provision_time.value_or(max_provision_time_)) {
      failed.push_back(group.group);
      entry.since = now;
    }
    next.emplace(group.group, entry);
  }
  entries_ = std::move(next);
  scaled_up_.clear();
  return failed;
}

int64_t ProvisionTracker::Upcoming(const std::string& group) const {
  auto it = entries_.find(group);
  return it == entries_.end() ? 0 : it->second.upcoming;
}

void ProvisionTracker::ScaledUp(const std::string& group, TimePoint now) {
  scaled_up_.emplace(group, now);
}

std::optional<TimePoint> ProvisionTracker::RequestedSince(
    const std::string& group) const {
  if (auto it = entries_.find(group); it != entries_.end()) {
    return it->second.requested;
  }
  if (auto it = scaled_up_.find(group); it != scaled_up_.end()) {
    return it->second;
  }
  return std::nullopt;
}

TimePoint ProvisionTracker::WaitingSince(const std::string& group) const {
  auto it = entries_.find(group);
  return it == entries_.end() ? TimePoint() : it->second.since;
}

}  // namespace propscaler::nodescale
