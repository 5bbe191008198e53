#include "nodescale/plan/node_health.h"

#include <algorithm>
#include <sstream>

namespace propscaler::nodescale {
namespace {

bool MarksNotReady(const Taint& taint) {
  return taint.key == "node.kubernetes.io/not-ready" ||
         taint.key == "node.kubernetes.io/disk-pressure" ||
         taint.key == "node.kubernetes.io/network-unavailable";
}

}  // namespace

std::string_view ReadinessName(Readiness readiness) {
  switch (readiness) {
    case Readiness::kReady:
      return "Ready";
    case Readiness::kNotStarted:
      return "NotStarted";
    case Readiness::kUnready:
      return "Unready";
  }
  return "";
}

bool IsStartupTaint(const Taint& taint, const NodeHealthConfig& config) {
  return taint.key.starts_with(kStartupTaintPrefix) ||
         taint.key.starts_with(kIgnoreTaintPrefix) ||
         std::find(config.startup_taints.begin(), config.startup_taints.end(),
                   taint.key) != config.startup_taints.end();
}

Readiness ReadinessOf(const NodeState& node, TimePoint now,
                      const NodeHealthConfig& config,
                      std::optional<TimePoint> requested_since) {
  bool ready = node.ready;
  for (const Taint& taint : node.taints) {
    if (MarksNotReady(taint) || IsStartupTaint(taint, config)) ready = false;
  }
  if (ready) return Readiness::kReady;
  const bool requested = requested_since && node.created >= *requested_since;
  return requested || now - node.created < config.max_node_startup_time
             ? Readiness::kNotStarted
             : Readiness::kUnready;
}

ReadinessCounts CountReadiness(const std::vector<Readiness>& readiness) {
  ReadinessCounts counts;
  for (Readiness r : readiness) {
    if (r == Readiness::kReady) ++counts.ready;
    if (r == Readiness::kNotStarted) ++counts.not_started;
    if (r == Readiness::kUnready) ++counts.unready;
  }
  return counts;
}

ClusterHealth AssessClusterHealth(const ReadinessCounts& counts,
                                  const NodeHealthConfig& config) {
  const int64_t registered = counts.registered();
  const bool over_count = counts.unready > config.ok_total_unready_count;
  const bool over_share =
      registered > 0 &&
      100.0 * static_cast<double>(counts.unready) >
          config.max_total_unready_percentage * static_cast<double>(registered);
  if (!over_count || !over_share) return {};
  std::ostringstream reason;
  reason << counts.unready << " of " << registered
         << " nodes Unready: more than " << config.ok_total_unready_count
         << " (--ok-total-unready-count) and more than "
         << config.max_total_unready_percentage
         << "% (--max-total-unready-percentage)";
  return {false, reason.str()};
}

}  // namespace propscaler::nodescale
