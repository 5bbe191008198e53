#include "app/subcommand_flags.h"

#include <charconv>

namespace propscaler {

Result<std::vector<SubcommandFlag>> SplitSubcommandFlags(int argc,
                                                         char** argv) {
  std::vector<SubcommandFlag> flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.starts_with("--")) {
      return Status::Invalid("unexpected argument \"" + arg + "\"");
    }
    arg = arg.substr(2);
    const size_t equals = arg.find('=');
    SubcommandFlag flag;
    flag.name = arg.substr(0, equals);
    for (char& c : flag.name) c = c == '_' ? '-' : c;
    flag.has_value = equals != std::string::npos;
    if (flag.has_value) flag.value = arg.substr(equals + 1);
    flags.push_back(std::move(flag));
  }
  return flags;
}

bool AsksForHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-help" || arg == "-h" ||
        arg == "--helpfull") {
      return true;
    }
  }
  return false;
}

Result<int64_t> ParseNonNegativeFlag(const std::string& name,
                                     std::string_view value) {
  int64_t n = 0;
  auto [ptr, ec] =
      std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() ||
      ptr != value.data() + value.size() || n < 0) {
    return Status::Invalid("--" + name + "=" + std::string(value) +
                           ": want a non-negative integer");
  }
  return n;
}

}  // namespace propscaler
