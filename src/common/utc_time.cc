#include "common/utc_time.h"

#include <cstdio>
#include <ctime>

namespace propscaler {

std::string FormatUtc(std::chrono::system_clock::time_point time,
                      const char* format) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  const size_t length = std::strftime(text, sizeof(text), format, &utc);
  return std::string(text, length);
}

std::chrono::system_clock::time_point ParseRfc3339(std::string_view text) {
  std::tm tm{};
  const std::string copy(text);
  if (strptime(copy.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) {
    return {};
  }
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

std::string FormatMicroTime(std::chrono::system_clock::time_point time) {
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          time.time_since_epoch())
                          .count();
  const std::time_t seconds = micros / 1000000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[64];  // room for any int, so nothing can be cut
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<long long>(micros % 1000000));
  return text;
}

}  // namespace propscaler
