#include "checks/scale_targets.h"

#include <cstdio>

namespace propscaler::bench {
namespace {

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

// The simulated server logs a watch as a GET with watch=1; the real
// server's audit log as the verb WATCH.
bool IsWatch(const std::string& verb_and_path) {
  return verb_and_path.starts_with("WATCH ") ||
         verb_and_path.find("watch=1") != std::string::npos ||
         verb_and_path.find("watch=true") != std::string::npos ||
         verb_and_path.find("/watch/") != std::string::npos;
}

}  // namespace

Failures ScaleTargetFailures(const ScaleFigures& figures,
                             const ScaleTargets& targets) {
  Failures out;
  if (figures.rbac == "CPA itself") return out;
  const std::string size =
      "nodes=" + std::to_string(figures.nodes) + " rbac=" + figures.rbac + ": ";
  if (figures.reaction_trials < figures.reaction_trials_asked) {
    out.push_back(size + std::to_string(figures.reaction_trials) + " of " +
                  std::to_string(figures.reaction_trials_asked) +
                  " reaction trials saw their write");
  }
  if (figures.reaction_p99_ms > targets.max_reaction_p99_ms) {
    out.push_back(size + "reaction p99 " + Number(figures.reaction_p99_ms) +
                  " ms, over the target of " +
                  Number(targets.max_reaction_p99_ms) + " ms");
  }
  if (figures.rbac != "ours") return out;
  for (const auto& [request, count] : figures.requests_at_rest) {
    if (!IsWatch(request)) {
      out.push_back(size + "polled at rest: " + request + " (" +
                    std::to_string(count) + ")");
    }
  }
  if (figures.requests_at_rest_per_hour >
      targets.max_requests_at_rest_per_hour) {
    out.push_back(size + Number(figures.requests_at_rest_per_hour) +
                  " requests an hour at rest, over the target of " +
                  Number(targets.max_requests_at_rest_per_hour));
  }
  return out;
}

}  // namespace propscaler::bench
