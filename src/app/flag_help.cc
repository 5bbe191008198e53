#include "app/flag_help.h"

#include <algorithm>
#include <sstream>
#include <string_view>

namespace propscaler {
namespace {

struct Section {
  std::string_view title;
  std::vector<std::string_view> files;  // app/ files whose flags it lists
};

const std::vector<Section>& Sections() {
  static const std::vector<Section> sections = {
      {"Every mode", {"app/shared_flags.cc", "app/leader_election_flags.cc"}},
      {"Replica mode (the default; vertical mode reads --target and "
       "--configmap too)",
       {"app/replica_mode.cc"}},
      {"Vertical mode (--mode=vertical)", {"app/vertical_mode.cc"}},
      {"Node-scale mode (--mode=node-scale)", {"app/node_scale_flags.cc"}},
  };
  return sections;
}

bool InSection(const FlagDescription& flag, const Section& section) {
  return std::ranges::any_of(section.files, [&](std::string_view file) {
    return flag.file.ends_with(file);
  });
}

std::string Dashed(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

// `text` in lines of at most `width` characters after `indent` spaces.
void Wrap(std::string_view text, size_t indent, size_t width,
          std::ostringstream* out) {
  std::istringstream words{std::string(text)};
  std::string word;
  size_t column = 0;
  while (words >> word) {
    if (column > 0 && column + 1 + word.size() > width) {
      *out << "\n";
      column = 0;
    }
    *out << (column == 0 ? std::string(indent, ' ') : " ") << word;
    column += (column == 0 ? 0 : 1) + word.size();
  }
  *out << "\n";
}

void Describe(const FlagDescription& flag, std::ostringstream* out) {
  *out << "  --" << Dashed(flag.name) << " (" << flag.type;
  if (!flag.default_value.empty()) *out << ", default " << flag.default_value;
  *out << ")\n";
  Wrap(flag.description, 6, 72, out);
}

}  // namespace

std::string FlagsHelp(const std::string& usage,
                      const std::vector<FlagDescription>& flags) {
  std::ostringstream out;
  out << usage << "\n";
  for (const Section& section : Sections()) {
    std::vector<const FlagDescription*> listed;
    for (const FlagDescription& flag : flags) {
      if (InSection(flag, section)) listed.push_back(&flag);
    }
    if (listed.empty()) continue;
    std::ranges::sort(listed, {}, &FlagDescription::name);
    out << "\n" << section.title << ":\n";
    for (const FlagDescription* flag : listed) Describe(*flag, &out);
  }
  out << "\nglog's logging flags (--v, --vmodule, --logtostderr, ...) and "
         "gflags' own:\n  propscaler --helpfull\n"
         "Subcommands: propscaler plan --help, propscaler simulate --help\n";
  return out.str();
}

}  // namespace propscaler
