#include "nodescale/plan/health/node_health.h"

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

Readiness ReadinessOf(const NodeState& node, TimePoint now,
                      const NodeHealthConfig& config, bool drivers_registered,
                      std::optional<Duration> max_startup_time,
                      std::optional<TimePoint> wait_deadline) {
  bool ready = node.ready && drivers_registered;
  for (const Taint& taint : node.taints) {
    if (MarksNotReady(taint) || IsStartupTaint(taint, config.taints)) {
      ready = false;
    }
  }
  if (ready) return Readiness::kReady;
  const TimePoint started =
      node.created + max_startup_time.value_or(config.max_node_startup_time);
  const bool outlasts_wait =
      wait_deadline && started + std::chrono::seconds(1) >= *wait_deadline;
  return now < started || outlasts_wait ? Readiness::kNotStarted
                                        : Readiness::kUnready;
}

bool LacksTemplateCsiDriver(const VolumeLimits* node_limits,
                            const VolumeLimits& template_limits) {
  return std::ranges::any_of(template_limits, [&](const auto& driver) {
    return node_limits == nullptr || !node_limits->contains(driver.first);
  });
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

namespace {

// Above the count and above the share of `registered`.
bool TooMany(int64_t unready, int64_t registered,
             const NodeHealthConfig& config) {
  return unready > config.ok_total_unready_count && registered > 0 &&
         100.0 * static_cast<double>(unready) >
             config.max_total_unready_percentage *
                 static_cast<double>(registered);
}

}  // namespace

std::optional<std::string> GroupUnhealthy(const ReadinessCounts& counts,
                                          int64_t target, int64_t upcoming,
                                          const NodeHealthConfig& config) {
  const int64_t unjustified = target - upcoming - counts.ready;
  if (!TooMany(unjustified, counts.registered(), config)) return std::nullopt;
  return "node group unhealthy: " + std::to_string(unjustified) + " of " +
         std::to_string(counts.registered()) +
         " nodes not Ready beyond those coming";
}

ClusterHealth AssessClusterHealth(const ReadinessCounts& counts,
                                  const NodeHealthConfig& config) {
  const int64_t registered = counts.registered();
  if (!TooMany(counts.unready, registered, config)) return {};
  std::ostringstream reason;
  reason << counts.unready << " of " << registered
         << " nodes Unready: more than " << config.ok_total_unready_count
         << " (--ok-total-unready-count) and more than "
         << config.max_total_unready_percentage
         << "% (--max-total-unready-percentage)";
  return {false, reason.str()};
}

}  // namespace propscaler::nodescale
