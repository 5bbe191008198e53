#include "nodescale/plan/provisioning_requests/provreq_atomic.h"

#include <set>

#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"

namespace propscaler::nodescale {
namespace {

// Why no group takes every pod: the groups' reasons for the first pod
// left, at most five of them.
std::string NoOption(const ScaleUpPlan& plan) {
  constexpr size_t kMaxGroups = 5;
  std::string out = "no node group takes all " +
                    std::to_string(plan.unschedulable.size()) +
                    " pods that do not fit the nodes there are";
  if (plan.unschedulable.empty()) return out;
  const GroupReasons& reasons = *plan.unschedulable.front().reasons;
  size_t said = 0;
  for (const auto& [group, why] : reasons) {
    if (said++ == kMaxGroups) {
      out += "; " + std::to_string(reasons.size() - kMaxGroups) + " more";
      break;
    }
    out += "; " + group + ": " + why;
  }
  return out;
}

}  // namespace

std::string DescribeIncreases(const ScaleUpPlan& plan) {
  std::string out;
  for (const GroupIncrease& increase : plan.increases) {
    if (!out.empty()) out += ", ";
    out += "node group " + increase.group + " grows by " +
           std::to_string(increase.delta);
  }
  return out;
}

AtomicOutcome PlanAtomicRequest(const kube::ProvisioningRequest& request,
                                const std::vector<PodState>& pods,
                                const ClusterSnapshot& snapshot,
                                const std::vector<NodeGroup>& groups,
                                const ScaleUpMemory& memory,
                                const ScaleUpConfig& config,
                                ExpanderChain* expander, TimePoint now) {
  std::set<std::string> keys;
  for (const PodState& pod : pods) keys.insert(pod.Key());
  AtomicOutcome out;
  out.plan =
      PlanAllOrNothingScaleUp(snapshot, groups, memory, config, expander, keys);
  const bool all_built =
      static_cast<int64_t>(pods.size()) == request.PodCount();
  if (!out.plan.increases.empty() && all_built) {
    out.summary = DescribeIncreases(out.plan);
    return out;
  }
  out.plan.increases.clear();
  out.fits = out.plan.unschedulable.empty() && all_built;
  out.conditions = CheckOutcome(request, out.fits, now);
  if (out.fits) {
    out.summary = "every pod fits the nodes there are: no scale-up needed";
    return out;
  }
  out.summary = all_built ? NoOption(out.plan)
                          : std::to_string(request.PodCount()) +
                                " pods are more than the nodes there are and "
                                "every node group at its maximum size can hold";
  out.conditions.back().message += ": " + out.summary;
  return out;
}

}  // namespace propscaler::nodescale
