#include "checks/scale_targets.h"

#include <cstdio>
#include <string>

namespace propscaler::bench {
namespace {

std::string Number(double value, int digits = 0) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
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

namespace {

std::string Ratio(double value) { return Number(value, 3); }

// `what` of ours over CPA's, failing above `max` (or where CPA's is 0).
void HoldRatio(const std::string& size, const char* what, double ours,
               double cpa, double max, Failures* out) {
  const double ratio = cpa > 0 ? ours / cpa : 0;
  if (cpa > 0 && ratio <= max) return;
  out->push_back(size + what + " " + Ratio(ours) + " against CPA's " +
                 Ratio(cpa) + ": ratio " + (cpa > 0 ? Ratio(ratio) : "-") +
                 ", over the target of " + Ratio(max));
}

}  // namespace

Failures CpaRatioFailures(const ScaleFigures& ours, const ScaleFigures& cpa,
                          const CpaRatioTargets& targets) {
  Failures out;
  const std::string size = "nodes=" + std::to_string(ours.nodes) +
                           " rbac=" + ours.rbac + " against CPA: ";
  HoldRatio(size, "first correct scale (s)", ours.first_scale_s,
            cpa.first_scale_s, targets.max_first_scale, &out);
  HoldRatio(size, "median reaction (ms)", ours.reaction_p50_ms,
            cpa.reaction_p50_ms, targets.max_reaction_p50, &out);
  if (ours.nodes >= targets.peak_rss_from_nodes) {
    HoldRatio(size, "peak RSS (MiB)", ours.peak_rss_mib, cpa.peak_rss_mib,
              targets.max_peak_rss, &out);
  }
  return out;
}

std::string P99Name(int64_t trials) { return trials < 100 ? "max" : "p99"; }

}  // namespace propscaler::bench
