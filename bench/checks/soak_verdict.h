// What makes a soak run fail, from what it saw: propscaler exited, a change
// followed late or never, a wrong value between changes, a write from a
// stale view, or a fault that failed or was not seen to take effect. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_SOAK_VERDICT_H_
#define PROPSCALER_BENCH_CHECKS_SOAK_VERDICT_H_

#include <string>
#include <vector>

#include "checks/plan_checks.h"

namespace propscaler::bench {

struct SoakOutcome {
  bool propscaler_alive = true;
  // Changes that moved the model's answer and were followed past their
  // target (or never, within the give-up time): one line each.
  std::vector<std::string> late;
  // The target not at the model's value between changes: one line each.
  std::vector<std::string> wrong_values;
  // Faults that failed, or whose effect propscaler never showed.
  std::vector<std::string> faults_not_effective;
  // Writes of the target the model explains with no view propscaler may
  // have had (write_audit.h), or the audit log unreadable.
  std::vector<std::string> unexplained_writes;
};

// Empty when the run passes.
Failures SoakVerdict(const SoakOutcome& outcome);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_SOAK_VERDICT_H_
