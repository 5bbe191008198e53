// Which mode a command line asks for. --mode decides when given; else the
// program's name (`cpvpa`, as cluster-proportional-vertical-autoscaler's
// image names its binary, is vertical mode) or CPVA's config flags
// (--default-config, --config-file) choose vertical mode, so CPVA's
// manifests run unchanged; everything else is replica mode. Pure.
#ifndef PROPSCALER_APP_MODE_CHOICE_H_
#define PROPSCALER_APP_MODE_CHOICE_H_

#include <string>
#include <string_view>

namespace propscaler {

struct ModeSignals {
  std::string_view program;            // argv[0]
  bool mode_given = false;             // --mode on the command line
  std::string_view mode;               // its value
  bool vertical_config_given = false;  // --default-config or --config-file
};

std::string ChooseMode(const ModeSignals& signals);

}  // namespace propscaler

#endif  // PROPSCALER_APP_MODE_CHOICE_H_
