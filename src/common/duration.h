// Go-style durations as Kubernetes components take them on the command
// line: "10s", "15m", "1h30m", "500ms", "0".
#ifndef PROPSCALER_COMMON_DURATION_H_
#define PROPSCALER_COMMON_DURATION_H_

#include <chrono>
#include <string>
#include <string_view>

#include "common/status.h"

namespace propscaler {

// Errors name `flag` and the bad text.
Result<std::chrono::milliseconds> ParseDuration(std::string_view flag,
                                                std::string_view text);

// A duration in seconds as the messages give it: "45s", "900s", "1.5s".
std::string SecondsText(std::chrono::nanoseconds duration);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_DURATION_H_
