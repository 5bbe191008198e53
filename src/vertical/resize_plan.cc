#include "vertical/resize_plan.h"

#include <chrono>

#include "common/quantity.h"
#include "common/quantity_format.h"

namespace propscaler {
namespace {

// |wanted - current| within threshold_percent of current.
bool WithinThreshold(int64_t current, int64_t wanted, int64_t percent) {
  const __int128 difference =
      static_cast<__int128>(wanted) - static_cast<__int128>(current);
  const __int128 magnitude = difference < 0 ? -difference : difference;
  const __int128 base = current < 0 ? -static_cast<__int128>(current) : current;
  return magnitude * 100 <= base * percent;
}

std::string Names(const std::vector<kube::ContainerResources>& containers) {
  std::string out;
  for (const kube::ContainerResources& container : containers) {
    out += (out.empty() ? "" : ", ") + container.name;
  }
  return out;
}

struct SidePlanner {
  const ResizePolicy& policy;
  TimePoint now;
  const DecreaseHistory& before;
  ResizePlan* plan;

  void Plan(const std::string& container, const std::string& side,
            const std::map<std::string, int64_t>& wanted,
            const kube::ResourceList& current) {
    for (const auto& [resource, millis] : wanted) {
      auto it = current.find(resource);
      const std::string from = it == current.end() ? "" : it->second;
      ResourceChange change{container,
                            side,
                            resource,
                            from,
                            FormatMilliQuantity(millis, CpvaFormatOf(resource)),
                            millis};
      Result<int64_t> now_millis = from.empty()
                                       ? Result<int64_t>(Status::NotFound(""))
                                       : ParseMilliQuantity(from);
      if (!now_millis.ok()) {
        plan->changes.push_back(std::move(change));
        continue;
      }
      if (*now_millis == millis ||
          WithinThreshold(*now_millis, millis, policy.threshold_percent)) {
        continue;
      }
      if (millis < *now_millis && policy.scale_down_delay > Duration::zero()) {
        const std::string key = container + "/" + side + "/" + resource;
        auto since = before.find(key);
        const TimePoint first = since == before.end() ? now : since->second;
        plan->history[key] = first;
        if (now - first < policy.scale_down_delay) {
          const auto left = std::chrono::ceil<std::chrono::seconds>(
              policy.scale_down_delay - (now - first));
          plan->held.push_back(change.ToString() + " held " +
                               std::to_string(left.count()) +
                               "s more (--scale-down-delay-seconds)");
          continue;
        }
      }
      plan->changes.push_back(std::move(change));
    }
  }
};

}  // namespace

std::string ResourceChange::ToString() const {
  return container + " " + side + "." + resource + " " +
         (from.empty() ? "(unset)" : from) + " -> " + to;
}

ResizePlan PlanResize(const std::map<std::string, ComputedResources>& computed,
                      const std::vector<kube::ContainerResources>& current,
                      const ResizePolicy& policy, DecreaseHistory history,
                      TimePoint now) {
  ResizePlan plan;
  SidePlanner planner{policy, now, history, &plan};
  for (const auto& [name, wanted] : computed) {
    const kube::ContainerResources* container =
        kube::FindContainer(current, name);
    if (container == nullptr) {
      plan.missing_containers.push_back("container " + name +
                                        " is not in the pod template (it has " +
                                        Names(current) + ")");
      continue;
    }
    planner.Plan(name, "requests", wanted.requests, container->requests);
    planner.Plan(name, "limits", wanted.limits, container->limits);
  }
  return plan;
}

std::vector<kube::ContainerResourcesEdit> EditsOf(
    const std::vector<ResourceChange>& changes) {
  std::vector<kube::ContainerResourcesEdit> edits;
  for (const ResourceChange& change : changes) {
    if (edits.empty() || edits.back().container != change.container) {
      edits.push_back({change.container, {}, {}});
    }
    kube::ResourceList& side =
        change.side == "limits" ? edits.back().limits : edits.back().requests;
    side[change.resource] = change.to;
  }
  return edits;
}

}  // namespace propscaler
