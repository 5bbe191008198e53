#include "app/duration_flags.h"

#include <gflags/gflags.h>

#include <algorithm>

#include "common/duration.h"

namespace propscaler {

std::pair<std::string, std::string> DashedFlag(const char* name) {
  std::string value;
  gflags::GetCommandLineOption(name, &value);
  std::string dashed = name;
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  return {dashed, value};
}

Status ParseDurationFlags(
    const std::vector<std::pair<const char*, Duration*>>& flags) {
  for (const auto& [name, target] : flags) {
    const auto [dashed, value] = DashedFlag(name);
    Result<std::chrono::milliseconds> parsed = ParseDuration(dashed, value);
    if (!parsed.ok()) return parsed.status();
    *target = *parsed;
  }
  return Status::Ok();
}

Status CheckPositiveDurations(
    const std::vector<std::pair<const char*, Duration>>& durations) {
  for (const auto& [flag, value] : durations) {
    if (value <= Duration::zero()) {
      const auto [dashed, current] = DashedFlag(flag);
      return Status::Invalid("--" + dashed + "=" + current +
                             ": want a duration above zero");
    }
  }
  return Status::Ok();
}

}  // namespace propscaler
