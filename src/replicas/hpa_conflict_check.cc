#include "replicas/hpa_conflict_check.h"

#include <glog/logging.h>

namespace propscaler {

HpaConflictCheck::HpaConflictCheck(const kube::Client* api, std::string ns,
                                   std::vector<kube::ScaleTarget> targets)
    : api_(api), namespace_(std::move(ns)), targets_(std::move(targets)) {}

std::vector<HpaConflict> HpaConflictCheck::CheckIfDue(TimePoint now) {
  if (disabled_ || (last_check_.has_value() && now - *last_check_ < kInterval))
    return {};
  last_check_ = now;
  Result<std::vector<kube::HpaRef>> hpas =
      api_->ListHorizontalPodAutoscalers(namespace_);
  if (!hpas.ok()) {
    const StatusCode code = hpas.status().code();
    if (code == StatusCode::kPermissionDenied ||
        code == StatusCode::kNotFound) {
      LOG(WARNING) << "cannot list horizontalpodautoscalers in namespace "
                   << namespace_ << " (" << hpas.status().message()
                   << "); the check for an HPA scaling the same target is "
                      "off (grant list on horizontalpodautoscalers.autoscaling "
                      "to turn it on)";
      disabled_ = true;
    } else {
      VLOG(1) << "HPA check: " << hpas.status().message();
    }
    return {};
  }
  std::vector<HpaConflict> conflicts = FindHpaConflicts(*hpas, targets_);
  std::set<std::string> current;
  for (const HpaConflict& conflict : conflicts) {
    const std::string key = conflict.hpa + " -> " + conflict.target.ToString();
    current.insert(key);
    if (warned_.count(key) == 0) {
      LOG(WARNING) << "HorizontalPodAutoscaler " << namespace_ << "/"
                   << conflict.hpa << " also scales "
                   << conflict.target.ToString()
                   << ": the two will fight over its replicas; remove one";
    }
  }
  warned_ = std::move(current);
  return conflicts;
}

}  // namespace propscaler
