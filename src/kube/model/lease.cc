#include "kube/model/lease.h"

#include <cstdio>
#include <ctime>

namespace propscaler::kube {

std::string DescribeLease(const Lease& lease) {
  return "lease " + lease.namespace_ + "/" + lease.name;
}

std::string FormatMicroTime(TimePoint time) {
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

}  // namespace propscaler::kube
