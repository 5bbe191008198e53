#include "common/duration.h"

#include <cctype>
#include <string>

namespace propscaler {
namespace {

// Milliseconds per unit; 0 when the unit is unknown.
double UnitMillis(std::string_view unit) {
  if (unit == "ms") return 1;
  if (unit == "s") return 1000;
  if (unit == "m") return 60 * 1000;
  if (unit == "h") return 60 * 60 * 1000;
  return 0;
}

}  // namespace

Result<std::chrono::milliseconds> ParseDuration(std::string_view flag,
                                                std::string_view text) {
  auto bad = [&](const char* why) {
    return Status::Invalid("--" + std::string(flag) + "=" + std::string(text) +
                           ": " + why + " (want e.g. 10s, 15m, 1h30m)");
  };
  if (text == "0") return std::chrono::milliseconds(0);
  if (text.empty()) return bad("empty duration");
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && (std::isdigit(text[i]) || text[i] == '.')) ++i;
    if (i == start) return bad("expected a number");
    const double number = std::stod(std::string(text.substr(start, i - start)));
    start = i;
    while (i < text.size() && std::isalpha(text[i])) ++i;
    const double unit = UnitMillis(text.substr(start, i - start));
    if (unit == 0) return bad("unknown or missing unit");
    total += number * unit;
  }
  return std::chrono::milliseconds(static_cast<int64_t>(total));
}

}  // namespace propscaler
