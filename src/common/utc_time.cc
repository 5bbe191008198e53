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

}  // namespace propscaler
