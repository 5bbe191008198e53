#include "common/object_names.h"

#include <string>

namespace propscaler {
namespace {

bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool IsLabel(std::string_view text) {
  if (text.empty() || text.size() > 63) return false;
  if (!IsLowerAlnum(text.front()) || !IsLowerAlnum(text.back())) return false;
  for (char c : text) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

Status Bad(std::string_view flag, std::string_view value, const char* rule) {
  return Status::Invalid("--" + std::string(flag) + "=" + std::string(value) +
                         ": not a valid name (" + rule + ")");
}

}  // namespace

Status CheckDns1123Label(std::string_view flag, std::string_view value) {
  if (IsLabel(value)) return Status::Ok();
  return Bad(flag, value,
             "a DNS-1123 label: at most 63 lowercase letters, digits and "
             "'-', starting and ending with a letter or digit");
}

bool IsDns1123Subdomain(std::string_view value) {
  bool ok = !value.empty() && value.size() <= 253;
  for (size_t start = 0; ok;) {
    const size_t dot = value.find('.', start);
    ok = IsLabel(value.substr(start, dot == std::string_view::npos
                                         ? std::string_view::npos
                                         : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return ok;
}

Status CheckDns1123Subdomain(std::string_view flag, std::string_view value) {
  if (IsDns1123Subdomain(value)) return Status::Ok();
  return Bad(flag, value,
             "a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', "
             "at most 253 characters, each part starting and ending with a "
             "letter or digit");
}

std::string AsciiLower(std::string_view value) {
  std::string lower(value);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

}  // namespace propscaler
