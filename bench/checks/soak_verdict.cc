#include "checks/soak_verdict.h"

namespace propscaler::bench {
namespace {

void AddAll(const char* what, const std::vector<std::string>& lines,
            Failures* failures) {
  if (lines.empty()) return;
  failures->push_back(std::to_string(lines.size()) + " " + what +
                      ", the first: " + lines.front());
}

}  // namespace

Failures SoakVerdict(const SoakOutcome& outcome) {
  Failures failures;
  if (!outcome.propscaler_alive) failures.push_back("propscaler exited");
  AddAll("changes followed late", outcome.late, &failures);
  AddAll("wrong values between changes", outcome.wrong_values, &failures);
  AddAll("faults without effect", outcome.faults_not_effective, &failures);
  AddAll("writes the model does not explain", outcome.unexplained_writes,
         &failures);
  return failures;
}

}  // namespace propscaler::bench
