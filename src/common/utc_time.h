// Wall-clock times as text in UTC.
#ifndef PROPSCALER_COMMON_UTC_TIME_H_
#define PROPSCALER_COMMON_UTC_TIME_H_

#include <chrono>
#include <string>

namespace propscaler {

// `time` in UTC through strftime's `format`, e.g. "%Y-%m-%dT%H:%M:%SZ".
std::string FormatUtc(std::chrono::system_clock::time_point time,
                      const char* format);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_UTC_TIME_H_
