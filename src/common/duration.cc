#include "common/duration.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <string>

namespace propscaler {
namespace {

// Milliseconds per unit (Go's units); 0 when the unit is unknown.
double UnitMillis(std::string_view unit) {
  if (unit == "ns") return 1e-6;
  if (unit == "us" || unit == "\u00b5s") return 1e-3;
  if (unit == "ms") return 1;
  if (unit == "s") return 1000;
  if (unit == "m") return 60 * 1000;
  if (unit == "h") return 60 * 60 * 1000;
  return 0;
}

bool IsDigitOrDot(char c) { return (c >= '0' && c <= '9') || c == '.'; }

// The longest duration accepted: ten years, far beyond any timer's use and
// far from overflowing milliseconds in an int64.
constexpr double kMaxMillis = 10.0 * 365 * 24 * 60 * 60 * 1000;

}  // namespace

Result<std::chrono::milliseconds> ParseDuration(std::string_view flag,
                                                std::string_view text) {
  auto bad = [&](const std::string& why) {
    return Status::Invalid("--" + std::string(flag) + "=" + std::string(text) +
                           ": " + why +
                           " (want a duration such as 300ms, 10s, 15m, 1h30m)");
  };
  if (text == "0") return std::chrono::milliseconds(0);
  if (text.empty()) return bad("empty duration");
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    const size_t start = i;
    while (i < text.size() && IsDigitOrDot(text[i])) ++i;
    const std::string_view digits = text.substr(start, i - start);
    double number = 0;
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), number,
                        std::chars_format::fixed);
    if (digits.empty() || error != std::errc() ||
        end != digits.data() + digits.size()) {
      return bad(digits.empty()
                     ? "expected a number"
                     : "\"" + std::string(digits) + "\" is not a number");
    }
    const size_t unit_start = i;
    while (i < text.size() && !IsDigitOrDot(text[i])) ++i;
    const std::string_view unit = text.substr(unit_start, i - unit_start);
    const double millis = UnitMillis(unit);
    if (millis == 0) {
      return bad(unit.empty() ? "missing unit"
                              : "unknown unit \"" + std::string(unit) + "\"");
    }
    total += number * millis;
    if (!std::isfinite(total) || total > kMaxMillis) {
      return bad("longer than ten years");
    }
  }
  return std::chrono::milliseconds(static_cast<int64_t>(total));
}

std::string SecondsText(std::chrono::nanoseconds duration) {
  std::ostringstream out;
  out << std::chrono::duration<double>(duration).count() << "s";
  return out.str();
}

}  // namespace propscaler
