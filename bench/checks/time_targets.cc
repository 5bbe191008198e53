#include "checks/time_targets.h"

#include <cstdio>

namespace propscaler::bench {
namespace {

bool Names(const TimeTarget& target, const std::string& benchmark) {
  if (!target.benchmark.empty() && target.benchmark.back() == '/') {
    return benchmark.rfind(target.benchmark, 0) == 0;
  }
  return benchmark == target.benchmark;
}

}  // namespace

const std::vector<TimeTarget>& BenchTimeTargets() {
  static const auto* const kTargets = new std::vector<TimeTarget>{
      {"PlanScaleUpBench/10000", 100, "issue 3"},
      {"PlanScaleUpBench/100000", 1000, "issue 3"},
      {"PlanScaleDownBench", 500, "issue 3"},
      {"DisruptionPassBench/nodes:1000/", 1000, "issue 26"},
      {"DisruptionPassBench/nodes:5000/", 10000, "issue 26"},
      {"PlanScaleUpZonalDeploymentsBench/pods:20000/", 2000, "issue 27"},
  };
  return *kTargets;
}

std::optional<std::string> TimeTargetMiss(
    const std::vector<TimeTarget>& targets, const std::string& benchmark,
    double real_ms) {
  for (const TimeTarget& target : targets) {
    if (!Names(target, benchmark) || real_ms <= target.max_ms) continue;
    char text[64];
    std::snprintf(text, sizeof(text), "%.1f ms, over the %.0f ms target",
                  real_ms, target.max_ms);
    return benchmark + ": " + text + " (" + target.source + ")";
  }
  return std::nullopt;
}

}  // namespace propscaler::bench
