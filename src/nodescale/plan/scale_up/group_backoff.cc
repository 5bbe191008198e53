#include "nodescale/plan/scale_up/group_backoff.h"

#include <algorithm>
#include <utility>

namespace propscaler::nodescale {

TimePoint GroupBackoff::Fail(const std::string& group, TimePoint now,
                             BackoffReason reason) {
  Entry& entry = entries_[group];
  entry.reason = std::move(reason);
  Duration wait = initial_;
  for (int i = 0; i < entry.failures && wait < max_; ++i) wait *= 2;
  ++entry.failures;
  entry.until = now + std::min(wait, max_);
  return entry.until;
}

void GroupBackoff::Succeed(const std::string& group) { entries_.erase(group); }

bool GroupBackoff::BackedOff(const std::string& group, TimePoint now) const {
  auto it = entries_.find(group);
  return it != entries_.end() && now < it->second.until;
}

std::set<std::string, std::less<>> GroupBackoff::BackedOffGroups(
    TimePoint now) const {
  std::set<std::string, std::less<>> out;
  for (const auto& [group, entry] : entries_) {
    if (now < entry.until) out.insert(group);
  }
  return out;
}

TimePoint GroupBackoff::Until(const std::string& group) const {
  auto it = entries_.find(group);
  return it == entries_.end() ? TimePoint() : it->second.until;
}

const BackoffReason* GroupBackoff::ReasonOf(const std::string& group) const {
  auto it = entries_.find(group);
  return it == entries_.end() ? nullptr : &it->second.reason;
}

}  // namespace propscaler::nodescale
