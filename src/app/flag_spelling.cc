#include "app/flag_spelling.h"

namespace propscaler {

std::vector<std::string> NormalizeFlagSpelling(
    const std::vector<std::string>& args) {
  std::vector<std::string> out;
  out.reserve(args.size());
  bool after_terminator = false;
  for (const std::string& arg : args) {
    if (arg == "--") after_terminator = true;
    if (after_terminator || arg.size() < 2 || arg[0] != '-') {
      out.push_back(arg);
      continue;
    }
    std::string normalized = arg;
    const size_t name_start = arg[1] == '-' ? 2 : 1;
    const size_t name_end = std::min(arg.find('='), arg.size());
    for (size_t i = name_start; i < name_end; ++i) {
      if (normalized[i] == '-') normalized[i] = '_';
    }
    out.push_back(std::move(normalized));
  }
  return out;
}

}  // namespace propscaler
