#include "common/taint_filter.h"

#include <algorithm>

#include "common/label_selector.h"

namespace propscaler {
namespace {

constexpr std::string_view kEffects[] = {"NoSchedule", "PreferNoSchedule",
                                         "NoExecute"};

std::string_view Trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  const size_t start = text.find_first_not_of(kSpace);
  if (start == std::string_view::npos) return {};
  return text.substr(start, text.find_last_not_of(kSpace) - start + 1);
}

Status EntryError(std::string_view entry, const std::string& problem) {
  return Status::Invalid("\"" + std::string(entry) + "\": " + problem);
}

}  // namespace

Result<TaintFilter> TaintFilter::Parse(std::string_view text) {
  TaintFilter filter;
  if (Trim(text).empty()) return filter;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view entry = Trim(text.substr(start, comma - start));
    start = comma + 1;
    const size_t colon = entry.find(':');
    const std::string_view key = entry.substr(0, colon);
    if (key.empty()) return EntryError(entry, "empty taint key");
    if (std::string problem = LabelKeyProblem(key); !problem.empty()) {
      return EntryError(entry, "invalid taint key: " + problem);
    }
    std::string_view effect;
    if (colon != std::string_view::npos) {
      effect = entry.substr(colon + 1);
      if (std::find(std::begin(kEffects), std::end(kEffects), effect) ==
          std::end(kEffects)) {
        return EntryError(entry, "unknown effect \"" + std::string(effect) +
                                     "\"; want NoSchedule, "
                                     "PreferNoSchedule or NoExecute");
      }
    }
    filter.entries_.push_back({std::string(key), std::string(effect)});
  }
  return filter;
}

bool TaintFilter::Matches(std::string_view key, std::string_view effect) const {
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return e.key == key && (e.effect.empty() || e.effect == effect);
  });
}

std::string TaintFilter::ToString() const {
  std::string out;
  for (const Entry& e : entries_) {
    if (!out.empty()) out += ",";
    out += e.effect.empty() ? e.key : e.key + ":" + e.effect;
  }
  return out;
}

}  // namespace propscaler
