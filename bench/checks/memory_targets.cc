#include "checks/memory_targets.h"

#include "checks/target_check.h"

namespace propscaler::bench {
MemoryTargets DefaultMemoryTargets(const MemoryShape& shape) {
  if (shape.tiny_pods || shape.provider != "kwok") return {};
  // Issue 14's 64 MiB; the README's run: 48.7 MiB, first loop 3.11 s,
  // 28 ms a loop at rest.
  if (shape.server == "real" && shape.nodes == 1000 && shape.pods == 30000 &&
      shape.claim_percent == 0) {
    return {64, 6, 60, "issue 14; bench/README.md, 1,000 x 30,000 real"};
  }
  // The README's runs: 150.9 / 151.2 MiB without claims, 188.7 / 188.8 with
  // 10%; first loops 14.7 to 17.9 s; 70 to 95 ms a loop at rest.
  if (shape.server == "simulated" && shape.nodes == 5000 &&
      shape.pods == 150000) {
    if (shape.claim_percent == 0) {
      return {170, 30, 150, "bench/README.md, 5,000 x 150,000 simulated"};
    }
    if (shape.claim_percent == 10) {
      return {210, 30, 150,
              "bench/README.md, 5,000 x 150,000 simulated, 10% claims"};
    }
  }
  return {};
}

Failures MemoryTargetFailures(const MemoryFigures& figures,
                              const MemoryTargets& targets) {
  Failures out;
  CheckTarget("peak RSS", figures.peak_rss_mib, targets.peak_rss_mib, "MiB",
              targets.source, &out);
  CheckTarget("first loop", figures.first_loop_s, targets.first_loop_s, "s",
              targets.source, &out);
  CheckTarget("a loop at rest", figures.rest_cpu_ms, targets.rest_cpu_ms,
              "ms of CPU", targets.source, &out);
  return out;
}

}  // namespace propscaler::bench
