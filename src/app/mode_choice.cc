#include "app/mode_choice.h"

namespace propscaler {

std::string ChooseMode(const ModeSignals& signals) {
  if (signals.mode_given) return std::string(signals.mode);
  std::string_view name = signals.program;
  if (const size_t slash = name.rfind('/'); slash != std::string_view::npos) {
    name.remove_prefix(slash + 1);
  }
  if (name == "cpvpa" || signals.vertical_config_given) return "vertical";
  return "replicas";
}

}  // namespace propscaler
