// One figure against its target, for the harnesses' target checks
// (memory_targets.h, runonce_targets.h). Pure.
#ifndef PROPSCALER_BENCH_CHECKS_TARGET_CHECK_H_
#define PROPSCALER_BENCH_CHECKS_TARGET_CHECK_H_

#include <string>

#include "checks/plan_checks.h"

namespace propscaler::bench {

// Adds "<what> <figure> <unit>, over the target of <target> <unit>
// (<source>)" to `out` when `figure` is over `target`; a target of 0 or
// less is none.
void CheckTarget(const char* what, double figure, double target,
                 const char* unit, const std::string& source, Failures* out);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_TARGET_CHECK_H_
