// What propscaler_nodescale_memory holds node-scale mode to at the shapes
// bench/README.md reports (issue 65): the peak resident size over the
// lists and the first loops, the time to the first loop, and the CPU of a
// loop at rest. Each target sits above the figures the README shows for
// its shape with room for a loaded 2-core machine; a shape the README has
// no figures for has none unless its flags set them. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_MEMORY_TARGETS_H_
#define PROPSCALER_BENCH_CHECKS_MEMORY_TARGETS_H_

#include <string>

#include "checks/plan_checks.h"

namespace propscaler::bench {

// 0: not held to one.
struct MemoryTargets {
  double peak_rss_mib = 0;
  double first_loop_s = 0;
  double rest_cpu_ms = 0;
  std::string source;  // where the figures behind them are
};

struct MemoryShape {
  std::string server;  // "simulated" or "real"
  int nodes = 0;
  int pods = 0;
  int claim_percent = 0;
  bool tiny_pods = false;
  std::string provider = "kwok";
};

// The targets of a shape the README reports; none for another.
MemoryTargets DefaultMemoryTargets(const MemoryShape& shape);

struct MemoryFigures {
  double peak_rss_mib = 0;
  double first_loop_s = 0;
  double rest_cpu_ms = 0;
};

// Each figure over its target, with both; empty when all hold.
Failures MemoryTargetFailures(const MemoryFigures& figures,
                              const MemoryTargets& targets);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_MEMORY_TARGETS_H_
