#include "replicas/params_summary.h"

#include <optional>
#include <sstream>
#include <variant>
#include <vector>

namespace propscaler {
namespace {

void AppendSteps(const char* name, const std::vector<LadderStep>& steps,
                 std::ostringstream* out) {
  if (steps.empty()) return;
  *out << " " << name << "=[";
  for (size_t i = 0; i < steps.size(); ++i) {
    *out << (i == 0 ? "" : ",") << "[" << steps[i].threshold << ","
         << steps[i].replicas << "]";
  }
  *out << "]";
}

void AppendScaleDown(const std::optional<ScaleDownPolicy>& policy,
                     std::ostringstream* out) {
  if (!policy.has_value()) return;
  *out << " scaleDown={stabilizationSeconds=" << policy->stabilization_seconds
       << ",maxStepPercent=" << policy->max_step_percent
       << ",periodSeconds=" << policy->period_seconds << "}";
}

std::string Summarize(const LinearParams& p) {
  std::ostringstream out;
  out << "linear:";
  if (p.cores_per_replica != 0)
    out << " coresPerReplica=" << p.cores_per_replica;
  if (p.nodes_per_replica != 0)
    out << " nodesPerReplica=" << p.nodes_per_replica;
  if (p.pods_per_replica) out << " podsPerReplica=" << *p.pods_per_replica;
  if (p.min != 0) out << " min=" << p.min;
  if (p.max != 0) out << " max=" << p.max;
  if (p.prevent_single_point_failure) out << " preventSinglePointFailure";
  if (p.include_unschedulable_nodes) out << " includeUnschedulableNodes";
  AppendScaleDown(p.scale_down, &out);
  return out.str();
}

std::string Summarize(const LadderParams& p) {
  std::ostringstream out;
  out << "ladder:";
  AppendSteps("coresToReplicas", p.cores_to_replicas, &out);
  AppendSteps("nodesToReplicas", p.nodes_to_replicas, &out);
  AppendSteps("podsToReplicas", p.pods_to_replicas, &out);
  if (p.include_unschedulable_nodes) out << " includeUnschedulableNodes";
  AppendScaleDown(p.scale_down, &out);
  return out.str();
}

}  // namespace

std::string SummarizeParams(const Params& params) {
  return std::visit([](const auto& p) { return Summarize(p); }, params);
}

}  // namespace propscaler
