// Duration flags ("15s", "10m") turned into Durations, with errors that name
// the flag as users write it (dashes) and its bad value.
#ifndef PROPSCALER_APP_DURATION_FLAGS_H_
#define PROPSCALER_APP_DURATION_FLAGS_H_

#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/status.h"

namespace propscaler {

// The flag's name as users write it (dashes) and its current value.
std::pair<std::string, std::string> DashedFlag(const char* name);

// Parses each duration flag (gflags name, underscores) into its target;
// stops at the first error.
Status ParseDurationFlags(
    const std::vector<std::pair<const char*, Duration*>>& flags);

// Timers that must be positive: a zero would spin or act at once.
Status CheckPositiveDurations(
    const std::vector<std::pair<const char*, Duration>>& durations);

}  // namespace propscaler

#endif  // PROPSCALER_APP_DURATION_FLAGS_H_
