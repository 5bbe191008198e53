// The times the planning benchmarks are held to: the targets the issues
// that built them set (bench/README.md). propscaler_bench exits 1 on a
// miss, as it does on a wrong plan. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_TIME_TARGETS_H_
#define PROPSCALER_BENCH_CHECKS_TIME_TARGETS_H_

#include <optional>
#include <string>
#include <vector>

namespace propscaler::bench {

struct TimeTarget {
  std::string benchmark;  // the run's name, or its prefix ending in '/'
  double max_ms = 0;
  std::string source;  // where the target was set
};

// The project's targets for propscaler_bench's benchmarks.
const std::vector<TimeTarget>& BenchTimeTargets();

// What misses a target, naming the benchmark, its time, the target and
// where it was set; nothing when the time meets it or the benchmark has
// none. `real_ms` is one run's time, or the median of its repetitions.
std::optional<std::string> TimeTargetMiss(
    const std::vector<TimeTarget>& targets, const std::string& benchmark,
    double real_ms);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_TIME_TARGETS_H_
