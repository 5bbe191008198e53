// The flags of the subcommands (`propscaler simulate`, `propscaler plan`):
// "--name=value" or "--name", with dashes and underscores alike. Parsed
// without gflags, so each subcommand owns its flag set and the replica-mode
// flags are not accepted there. Pure.
#ifndef PROPSCALER_APP_SUBCOMMAND_FLAGS_H_
#define PROPSCALER_APP_SUBCOMMAND_FLAGS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler {

struct SubcommandFlag {
  std::string name;  // without "--", underscores turned into dashes
  std::string value;
  bool has_value = false;  // "--name=value", even when the value is empty
};

// argv[0] is the subcommand's name. Any argument that does not start with
// "--" is an error naming it.
Result<std::vector<SubcommandFlag>> SplitSubcommandFlags(int argc, char** argv);

// Whether the arguments ask for help (--help, -help, -h or --helpfull,
// anywhere): the subcommand then prints its help on stdout and exits 0.
bool AsksForHelp(int argc, char** argv);

// A whole number >= 0; the error names "--flag=value".
Result<int64_t> ParseNonNegativeFlag(const std::string& name,
                                     std::string_view value);

}  // namespace propscaler

#endif  // PROPSCALER_APP_SUBCOMMAND_FLAGS_H_
