#include "common/quantity_format.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace propscaler {
namespace {

std::string ToDecimal(__int128 value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  unsigned __int128 magnitude = negative
                                    ? -static_cast<unsigned __int128>(value)
                                    : static_cast<unsigned __int128>(value);
  std::string digits;
  while (magnitude > 0) {
    digits.push_back(static_cast<char>('0' + magnitude % 10));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// Mantissa and a decimal exponent that is a multiple of 3, with as few
// trailing zeros in the mantissa as that allows.
std::string FormatDecimal(int64_t millis) {
  __int128 mantissa = millis;
  int exponent = -3;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  const int remainder = ((exponent % 3) + 3) % 3;
  for (int i = 0; i < remainder; ++i) mantissa *= 10;
  exponent -= remainder;
  static constexpr const char* kSuffixes[] = {"m", "",  "k", "M",
                                              "G", "T", "P", "E"};
  return ToDecimal(mantissa) + kSuffixes[(exponent + 3) / 3];
}

}  // namespace

std::string FormatMilliQuantity(int64_t millis, QuantityFormat format) {
  if (millis == 0) return "0";
  constexpr int64_t kBinaryFloorMillis = 1024 * 1000;
  const bool binary =
      format == QuantityFormat::kBinarySI &&
      (millis >= kBinaryFloorMillis || millis <= -kBinaryFloorMillis) &&
      millis % 1000 == 0;
  if (!binary) return FormatDecimal(millis);
  int64_t units = millis / 1000;
  int exponent = 0;
  while (units % 1024 == 0 && exponent < 6) {
    units /= 1024;
    ++exponent;
  }
  static constexpr const char* kSuffixes[] = {"",   "Ki", "Mi", "Gi",
                                              "Ti", "Pi", "Ei"};
  return std::to_string(units) + kSuffixes[exponent];
}

QuantityFormat CpvaFormatOf(std::string_view resource) {
  return resource == "memory" || resource == "storage"
             ? QuantityFormat::kDecimalSI
             : QuantityFormat::kBinarySI;
}

std::string FormatCores(int64_t millis) {
  std::string text = std::to_string(millis / 1000);
  if (millis % 1000 == 0) return text;
  std::ostringstream fraction;
  fraction << std::setw(3) << std::setfill('0') << millis % 1000;
  std::string digits = fraction.str();
  while (digits.back() == '0') digits.pop_back();
  return text + "." + digits;
}

}  // namespace propscaler
