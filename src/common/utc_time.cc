#include "common/utc_time.h"

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

}  // namespace propscaler
