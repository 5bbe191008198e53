#include "app/flag_spelling.h"

#include <string_view>

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

std::vector<std::string> JoinRepeatedFlag(const std::vector<std::string>& args,
                                          const std::string& name,
                                          char separator) {
  std::vector<std::string> out;
  std::vector<std::string> values;
  size_t joined_at = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out.insert(out.end(), args.begin() + static_cast<long>(i), args.end());
      break;
    }
    const size_t dashes = arg.starts_with("--") ? 2 : arg.starts_with("-");
    const std::string_view rest = std::string_view(arg).substr(dashes);
    const bool with_value = dashes > 0 && rest.starts_with(name) &&
                            rest.size() > name.size() &&
                            rest[name.size()] == '=';
    const bool bare = dashes > 0 && rest == name && i + 1 < args.size();
    if (!with_value && !bare) {
      out.push_back(arg);
      continue;
    }
    if (values.empty()) joined_at = out.size();
    values.push_back(with_value ? std::string(rest.substr(name.size() + 1))
                                : args[++i]);
    if (values.size() == 1) out.push_back("");
  }
  if (values.empty()) return out;
  std::string joined;
  for (const std::string& value : values) {
    joined += (joined.empty() ? "" : std::string(1, separator)) + value;
  }
  out[joined_at] = "--" + name + "=" + joined;
  return out;
}

}  // namespace propscaler
