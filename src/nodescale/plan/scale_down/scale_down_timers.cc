#include "nodescale/plan/scale_down/scale_down_timers.h"

namespace propscaler::nodescale {

void ScaleDownTimers::SetUnneeded(const std::vector<std::string>& nodes,
                                  TimePoint now) {
  std::map<std::string, TimePoint> next;
  for (const std::string& node : nodes) {
    auto it = unneeded_since_.find(node);
    next[node] = it == unneeded_since_.end() ? now : it->second;
  }
  unneeded_since_ = std::move(next);
}

bool ScaleDownTimers::IsUnneeded(const std::string& node) const {
  return unneeded_since_.contains(node);
}

std::vector<std::string> ScaleDownTimers::RemovableNow(
    const std::vector<std::string>& nodes, TimePoint now,
    const std::set<std::string>& unready,
    const std::map<std::string, Duration>& waits) const {
  std::vector<std::string> out;
  for (const std::string& node : nodes) {
    auto it = unneeded_since_.find(node);
    auto own = waits.find(node);
    const Duration wait = own != waits.end()       ? own->second
                          : unready.contains(node) ? delays_.unready_time
                                                   : delays_.unneeded_time;
    if (it != unneeded_since_.end() && now - it->second >= wait) {
      out.push_back(node);
    }
  }
  return out;
}

TimePoint ScaleDownTimers::UnneededSince(const std::string& node) const {
  auto it = unneeded_since_.find(node);
  return it == unneeded_since_.end() ? TimePoint() : it->second;
}

std::optional<std::string> ScaleDownTimers::Blocked(TimePoint now) const {
  if (last_add_ && now - *last_add_ < delays_.delay_after_add) {
    return "in --scale-down-delay-after-add of the last scale-up";
  }
  if (last_delete_ && now - *last_delete_ < delays_.delay_after_delete) {
    return "in --scale-down-delay-after-delete of the last removal";
  }
  if (last_failure_ && now - *last_failure_ < delays_.delay_after_failure) {
    return "in --scale-down-delay-after-failure of the last failed removal";
  }
  return std::nullopt;
}

}  // namespace propscaler::nodescale
