// The promises replica mode's scale harness holds each cluster size to
// (README: sub-second reactions; docs/replica-mode.md: at rest nothing
// polled; and under one request a minute), and the conditions without which its
// figures mean nothing (every reaction trial saw its write). CPA's own runs are
// measured, not judged. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_SCALE_TARGETS_H_
#define PROPSCALER_BENCH_CHECKS_SCALE_TARGETS_H_

#include <cstdint>
#include <map>
#include <string>

#include "checks/plan_checks.h"

namespace propscaler::bench {

struct ScaleTargets {
  double max_reaction_p99_ms = 1000;
  double max_requests_at_rest_per_hour = 60;
};

// One size's figures over all its runs.
struct ScaleFigures {
  int nodes = 0;
  std::string rbac;  // "ours", "cpa" (CPA's RBAC), "CPA itself"
  double reaction_p99_ms = 0;
  int64_t reaction_trials = 0;           // measured
  int64_t reaction_trials_asked = 0;     // runs x --reaction_trials
  double requests_at_rest_per_hour = 0;  // median of the runs
  // Every run's requests in the window at rest: "VERB path" -> count.
  std::map<std::string, int64_t> requests_at_rest;
};

// Empty when the size meets its targets. Under CPA's RBAC propscaler polls
// by design (it may not watch the target), so only the reactions count.
Failures ScaleTargetFailures(const ScaleFigures& figures,
                             const ScaleTargets& targets);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_SCALE_TARGETS_H_
