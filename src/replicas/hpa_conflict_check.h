// Looks for HorizontalPodAutoscalers that scale one of the targets, on the
// first cycle and then every kInterval (one list request each time, so the
// API load at rest stays a dozen requests an hour). Without permission to
// list HPAs (RBAC written for cluster-proportional-autoscaler) the check
// turns itself off after one warning.
#ifndef PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_
#define PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/scale_target.h"
#include "replicas/hpa_conflicts.h"

namespace propscaler {

class HpaConflictCheck {
 public:
  static constexpr std::chrono::minutes kInterval{5};

  HpaConflictCheck(const kube::Client* api, std::string ns,
                   std::vector<kube::ScaleTarget> targets);

  // The conflicts found when a check is due at `now`; empty otherwise or on
  // error. Logs a warning when a conflict first appears.
  std::vector<HpaConflict> CheckIfDue(TimePoint now);

 private:
  const kube::Client* api_;
  const std::string namespace_;
  const std::vector<kube::ScaleTarget> targets_;
  std::optional<TimePoint> last_check_;
  bool disabled_ = false;
  std::set<std::string> warned_;  // "hpa -> kind/name" already logged
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_
