// What propscaler_runonce holds one --once iteration to (issue 65): its
// time from start to exit, its peak resident size and the requests it
// sends. At the shapes bench/README.md reports, the time and memory
// targets sit above the README's figures with room for a loaded 2-core
// machine; the request bound holds at any size: a scale-down's removals
// cost one Event, one eviction per pod, one read and one patch each
// (25.8 requests a node of the group, 60% of them removed at 40 pods), a
// scale-up one creation a node and at most twice the Events the recorder
// keeps waiting (4,096; not one for each of its 50 pods a node), plus 100
// for the lists, watches and leases. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_RUNONCE_TARGETS_H_
#define PROPSCALER_BENCH_CHECKS_RUNONCE_TARGETS_H_

#include <cstdint>
#include <string>

#include "checks/plan_checks.h"

namespace propscaler::bench {

// 0: not held to one.
struct RunOnceTargets {
  double wall_s = 0;
  double peak_rss_mib = 0;
  int64_t requests = 0;
  std::string source;
};

struct RunOnceShape {
  std::string shape;   // "scale-up" or "scale-down"
  std::string server;  // "simulated" or "real"
  int nodes = 0;
};

RunOnceTargets DefaultRunOnceTargets(const RunOnceShape& shape);

struct RunOnceFigures {
  double wall_s = 0;
  double peak_rss_mib = 0;
  int64_t requests = 0;
};

// Each figure over its target, with both; empty when all hold.
Failures RunOnceTargetFailures(const RunOnceFigures& figures,
                               const RunOnceTargets& targets);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_RUNONCE_TARGETS_H_
