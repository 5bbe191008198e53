// The priority expander, configured like CA's
// cluster-autoscaler-priority-expander ConfigMap: integer priority -> list
// of regexes over node group names. Each option takes the highest priority
// whose regex matches its group name anywhere (unanchored, as Go's
// MatchString); the options with the top priority win. Groups no regex
// matches are never chosen, as in CA. Without any priorities (no ConfigMap)
// every option passes, as CA's expander does when its config is missing.
//
// With backed-off groups and groups at their max size left out of the
// options, this is also a compute-class style ordered preference: family A
// at priority 50, family B at 10, and B is used only while A cannot grow.
#ifndef PROPSCALER_NODESCALE_EXPANDER_PRIORITY_H_
#define PROPSCALER_NODESCALE_EXPANDER_PRIORITY_H_

#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "common/status.h"
#include "nodescale/expander/expander.h"

namespace propscaler::nodescale {

struct PriorityLevel {
  int priority = 0;
  std::vector<std::string> patterns;
  std::vector<std::regex> regexes;
};

// Highest priority first.
using PriorityConfig = std::vector<PriorityLevel>;

// Compiles the patterns; an error names the priority and the bad regex.
Result<PriorityConfig> CompilePriorities(
    const std::map<int, std::vector<std::string>>& patterns);

// The priority of `group`, or nullopt when no regex matches it.
std::optional<int> PriorityOf(const PriorityConfig& config,
                              const std::string& group);

class PriorityExpander : public Expander {
 public:
  explicit PriorityExpander(PriorityConfig config)
      : config_(std::move(config)) {}
  std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) override;

 private:
  std::optional<int> CachedPriorityOf(const std::string& group);

  PriorityConfig config_;
  // Regex matching is slow next to everything else a round does.
  std::map<std::string, std::optional<int>, std::less<>> cache_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_EXPANDER_PRIORITY_H_
