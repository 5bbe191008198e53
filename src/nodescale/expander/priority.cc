#include "nodescale/expander/priority.h"

#include <algorithm>

namespace propscaler::nodescale {

Result<PriorityConfig> CompilePriorities(
    const std::map<int, std::vector<std::string>>& patterns) {
  PriorityConfig config;
  for (auto it = patterns.rbegin(); it != patterns.rend(); ++it) {
    PriorityLevel level{it->first, it->second, {}};
    for (const std::string& pattern : it->second) {
      try {
        level.regexes.emplace_back(pattern, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        return Status::Invalid("priority " + std::to_string(it->first) +
                               ": regex \"" + pattern + "\": " + e.what());
      }
    }
    config.push_back(std::move(level));
  }
  return config;
}

std::optional<int> PriorityOf(const PriorityConfig& config,
                              const std::string& group) {
  for (const PriorityLevel& level : config) {
    for (const std::regex& regex : level.regexes) {
      if (std::regex_search(group, regex)) return level.priority;
    }
  }
  return std::nullopt;
}

std::optional<int> PriorityExpander::CachedPriorityOf(
    const std::string& group) {
  auto it = cache_.find(group);
  if (it != cache_.end()) return it->second;
  std::optional<int> priority = PriorityOf(config_, group);
  cache_.emplace(group, priority);
  return priority;
}

std::vector<const ExpansionOption*> PriorityExpander::BestOptions(
    const std::vector<const ExpansionOption*>& options) {
  if (config_.empty()) return options;
  std::vector<const ExpansionOption*> best;
  int best_priority = 0;
  for (const ExpansionOption* option : options) {
    std::optional<int> priority = CachedPriorityOf(option->group);
    if (!priority) continue;
    if (!best.empty() && *priority < best_priority) continue;
    if (best.empty() || *priority > best_priority) {
      best.clear();
      best_priority = *priority;
    }
    best.push_back(option);
  }
  return best;
}

}  // namespace propscaler::nodescale
