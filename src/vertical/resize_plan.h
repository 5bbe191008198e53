// Which of the target's container resources to change, given what the
// arithmetic computed and what the pod template holds now. Pure.
//
// A value changes only when it differs from the current one by more than
// `threshold_percent` of the current one (addon-resizer's idea: node churn
// of a step or two does not roll the workload), or when it is absent or
// unreadable. A decrease also waits until it has been wanted for
// `scale_down_delay` without a break; an increase is applied at once.
#ifndef PROPSCALER_VERTICAL_RESIZE_PLAN_H_
#define PROPSCALER_VERTICAL_RESIZE_PLAN_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/pod_template.h"
#include "vertical/vertical_arithmetic.h"

namespace propscaler {

struct ResizePolicy {
  int64_t threshold_percent = 0;  // 0 to 100; 0: every difference
  Duration scale_down_delay{0};
};

struct ResourceChange {
  std::string container;
  std::string side;  // "requests" or "limits"
  std::string resource;
  std::string from;  // as the template has it; empty when absent
  std::string to;    // as CPVA writes it
  int64_t to_millis = 0;

  // "coredns requests.memory 70Mi -> 73400320".
  std::string ToString() const;
  bool operator==(const ResourceChange&) const = default;
};

// Since when each decrease has been wanted, by "container/side/resource".
using DecreaseHistory = std::map<std::string, TimePoint>;

struct ResizePlan {
  std::vector<ResourceChange> changes;
  // Decreases waiting for the delay, and containers the config names that
  // the template does not have, one line each.
  std::vector<std::string> held;
  std::vector<std::string> missing_containers;
  DecreaseHistory history;
};

ResizePlan PlanResize(const std::map<std::string, ComputedResources>& computed,
                      const std::vector<kube::ContainerResources>& current,
                      const ResizePolicy& policy, DecreaseHistory history,
                      TimePoint now);

// The changes as one strategic-merge edit per container.
std::vector<kube::ContainerResourcesEdit> EditsOf(
    const std::vector<ResourceChange>& changes);

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_RESIZE_PLAN_H_
