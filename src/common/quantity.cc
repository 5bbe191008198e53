#include "common/quantity.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace propscaler {
namespace {

// A quantity split into its parts: value = (-1 if negative) * digits *
// 10^exp10 * 2^exp2, where `digits` are the decimal digits of the mantissa
// with the decimal point removed.
struct ParsedQuantity {
  bool negative = false;
  std::string digits;
  int64_t exp10 = 0;
  int exp2 = 0;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string Quote(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

Status QuantityError(std::string_view text, const std::string& what) {
  return Status::Invalid("quantity " + Quote(text) + ": " + what);
}

// Interprets the suffix after the number: sets exp10 or exp2.
Status ParseSuffix(std::string_view text, std::string_view suffix,
                   ParsedQuantity* q) {
  struct Named {
    std::string_view name;
    int exp10;
    int exp2;
  };
  static constexpr Named kSuffixes[] = {
      {"", 0, 0},    {"n", -9, 0},  {"u", -6, 0},  {"m", -3, 0},
      {"k", 3, 0},   {"M", 6, 0},   {"G", 9, 0},   {"T", 12, 0},
      {"P", 15, 0},  {"E", 18, 0},  {"Ki", 0, 10}, {"Mi", 0, 20},
      {"Gi", 0, 30}, {"Ti", 0, 40}, {"Pi", 0, 50}, {"Ei", 0, 60},
  };
  for (const Named& s : kSuffixes) {
    if (suffix == s.name) {
      q->exp10 += s.exp10;
      q->exp2 = s.exp2;
      return Status::Ok();
    }
  }
  if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) {
    return QuantityError(text, "unknown suffix " + Quote(suffix));
  }
  // A decimal exponent: e/E, optional sign, digits; it must fit int32 as in
  // Kubernetes.
  std::string_view rest = suffix.substr(1);
  bool negative = false;
  if (rest[0] == '+' || rest[0] == '-') {
    negative = rest[0] == '-';
    rest.remove_prefix(1);
  }
  if (rest.empty()) {
    return QuantityError(text, "exponent " + Quote(suffix) + " has no digits");
  }
  int64_t exponent = 0;
  for (char c : rest) {
    if (!IsDigit(c)) {
      return QuantityError(text, "unknown suffix " + Quote(suffix));
    }
    exponent = exponent * 10 + (c - '0');
    if (exponent > int64_t{std::numeric_limits<int32_t>::max()} + 1) {
      return QuantityError(text, "exponent " + Quote(suffix) + " is too large");
    }
  }
  if (negative) exponent = -exponent;
  if (exponent > std::numeric_limits<int32_t>::max()) {
    return QuantityError(text, "exponent " + Quote(suffix) + " is too large");
  }
  q->exp10 += exponent;
  return Status::Ok();
}

Result<ParsedQuantity> Split(std::string_view text) {
  if (text.empty()) return QuantityError(text, "empty quantity");
  ParsedQuantity q;
  size_t pos = 0;
  if (text[pos] == '+' || text[pos] == '-') {
    q.negative = text[pos] == '-';
    ++pos;
  }
  size_t fraction_digits = 0;
  while (pos < text.size() && IsDigit(text[pos])) q.digits += text[pos++];
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (pos < text.size() && IsDigit(text[pos])) {
      q.digits += text[pos++];
      ++fraction_digits;
    }
  }
  if (q.digits.empty()) {
    return QuantityError(text, "expected a number, optionally signed, first");
  }
  q.exp10 = -static_cast<int64_t>(fraction_digits);
  if (Status s = ParseSuffix(text, text.substr(pos), &q); !s.ok()) return s;
  return q;
}

// Multiplies the decimal digit string by 2^exp2 in place.
void MultiplyByPowerOfTwo(std::string* digits, int exp2) {
  for (int i = 0; i < exp2; ++i) {
    int carry = 0;
    for (auto it = digits->rbegin(); it != digits->rend(); ++it) {
      int d = (*it - '0') * 2 + carry;
      *it = static_cast<char>('0' + d % 10);
      carry = d / 10;
    }
    if (carry != 0)
      digits->insert(digits->begin(), static_cast<char>('0' + carry));
  }
}

// ceil(value * 10^scale), where value is the parsed quantity: exact, or an
// error when the result does not fit int64.
Result<int64_t> ScaleRoundUp(std::string_view text, int scale) {
  Result<ParsedQuantity> parsed = Split(text);
  if (!parsed.ok()) return parsed.status();
  ParsedQuantity& q = *parsed;

  size_t first_nonzero = q.digits.find_first_not_of('0');
  if (first_nonzero == std::string::npos) return int64_t{0};
  std::string digits = q.digits.substr(first_nonzero);
  MultiplyByPowerOfTwo(&digits, q.exp2);
  int64_t exp10 = q.exp10 + scale;

  // Split digits * 10^exp10 into an integer part and whether a nonzero
  // fraction remains.
  std::string integer_digits;
  bool has_fraction = false;
  if (exp10 >= 0) {
    // digits has no leading zero, so the value is at least
    // 10^(size + exp10 - 1); beyond 19 digits it exceeds int64.
    if (static_cast<int64_t>(digits.size()) + exp10 > 19) {
      return QuantityError(text, "value does not fit a 64-bit integer");
    }
    integer_digits = digits + std::string(static_cast<size_t>(exp10), '0');
  } else {
    int64_t keep = static_cast<int64_t>(digits.size()) + exp10;
    if (keep <= 0) {
      has_fraction = true;  // nonzero digits, all below the unit
    } else {
      integer_digits = digits.substr(0, static_cast<size_t>(keep));
      has_fraction = digits.find_first_not_of('0', static_cast<size_t>(keep)) !=
                     std::string::npos;
    }
    if (integer_digits.size() > 19) {
      return QuantityError(text, "value does not fit a 64-bit integer");
    }
  }

  unsigned __int128 magnitude = 0;
  for (char c : integer_digits) magnitude = magnitude * 10 + (c - '0');
  __int128 value = static_cast<__int128>(magnitude);
  if (q.negative) {
    value = -value;  // ceiling of a negative value drops the fraction
  } else if (has_fraction) {
    value += 1;
  }
  if (value > std::numeric_limits<int64_t>::max() ||
      value < std::numeric_limits<int64_t>::min()) {
    return QuantityError(text, "value does not fit a 64-bit integer");
  }
  return static_cast<int64_t>(value);
}

}  // namespace

Result<int64_t> ParseMilliQuantity(std::string_view text) {
  return ScaleRoundUp(text, 3);
}

Result<int64_t> ParseQuantity(std::string_view text) {
  return ScaleRoundUp(text, 0);
}

int64_t MilliToUnitsRoundUp(int64_t millis) {
  int64_t units = millis / 1000;
  if (millis % 1000 > 0) ++units;  // C++ division truncates toward zero
  return units;
}

}  // namespace propscaler
