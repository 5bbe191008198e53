// Wall-clock times as text in UTC.
#ifndef PROPSCALER_COMMON_UTC_TIME_H_
#define PROPSCALER_COMMON_UTC_TIME_H_

#include <chrono>
#include <string>
#include <string_view>

namespace propscaler {

// `time` in UTC through strftime's `format`, e.g. "%Y-%m-%dT%H:%M:%SZ".
std::string FormatUtc(std::chrono::system_clock::time_point time,
                      const char* format);

// "2024-05-01T10:00:00.123456Z": Kubernetes' MicroTime, as Leases and
// Events carry it, and as propscaler's status shows times.
std::string FormatMicroTime(std::chrono::system_clock::time_point time);

// "2024-05-01T10:00:00Z" (the seconds of an RFC 3339 time; a fraction or
// offset after them is not read) as a time point; the epoch when
// unparsable.
std::chrono::system_clock::time_point ParseRfc3339(std::string_view text);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_UTC_TIME_H_
