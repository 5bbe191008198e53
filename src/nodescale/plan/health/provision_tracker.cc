#include "nodescale/plan/health/provision_tracker.h"

#include <algorithm>

namespace propscaler::nodescale {

std::vector<std::string> ProvisionTracker::Update(
    const std::vector<GroupProgress>& groups, TimePoint now) {
  std::map<std::string, Entry> next;
  std::vector<std::string> failed;
  for (const GroupProgress& group : groups) {
    const int64_t upcoming = std::max<int64_t>(0, group.target - group.ready);
    if (upcoming == 0) continue;
    Entry entry{upcoming, group.ready, now,
                group.max_provision_time.value_or(max_provision_time_)};
    auto previous = entries_.find(group.group);
    auto scaled_up = scaled_up_.find(group.group);
    if (previous != entries_.end()) {
      if (group.ready <= previous->second.ready) {
        entry.since = previous->second.since;
      }
    } else if (scaled_up != scaled_up_.end()) {
      entry.since = scaled_up->second;
    }
    if (now - entry.since >= entry.provision_time) {
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

std::optional<TimePoint> ProvisionTracker::Deadline(
    const std::string& group) const {
  auto it = entries_.find(group);
  if (it == entries_.end()) return std::nullopt;
  return it->second.since + it->second.provision_time;
}

TimePoint ProvisionTracker::WaitingSince(const std::string& group) const {
  auto it = entries_.find(group);
  return it == entries_.end() ? TimePoint() : it->second.since;
}

}  // namespace propscaler::nodescale
