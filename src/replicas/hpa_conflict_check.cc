#include "replicas/hpa_conflict_check.h"

#include <glog/logging.h>

namespace propscaler {

HpaConflictCheck::HpaConflictCheck(const kube::HpaClient* api, std::string ns,
                                   std::vector<kube::ScaleTarget> targets)
    : api_(api), namespace_(std::move(ns)), targets_(std::move(targets)) {}

HpaConflictCheck::~HpaConflictCheck() { Join(); }

void HpaConflictCheck::Start(const Clock* clock, StopSignal* stop) {
  auto changed = [this] { changed_ = true; };
  reflector_ = std::make_unique<kube::Reflector<kube::HpaRef>>(
      api_->HorizontalPodAutoscalers(namespace_),
      kube::ReflectorSink<kube::HpaRef>{
          [this, changed](std::vector<kube::HpaRef> items) {
            std::lock_guard<std::mutex> lock(mutex_);
            watched_.clear();
            for (kube::HpaRef& item : items) {
              std::string name = item.name;
              watched_.emplace(std::move(name), std::move(item));
            }
            listed_ = true;
            changed();
          },
          [this, changed](const kube::HpaRef& hpa) {
            std::lock_guard<std::mutex> lock(mutex_);
            watched_[hpa.name] = hpa;
            changed();
          },
          [this, changed](const kube::HpaRef& hpa) {
            std::lock_guard<std::mutex> lock(mutex_);
            watched_.erase(hpa.name);
            changed();
          }},
      "horizontalpodautoscalers in namespace " + namespace_);
  thread_ = clock->StartThread([this, stop] {
    reflector_->RunRetryingWhenForbidden(
        stop, [this](const Status&) { return OnWatchForbidden(); });
  });
}

void HpaConflictCheck::Join() {
  if (thread_.joinable()) thread_.join();
}

bool HpaConflictCheck::OnWatchForbidden() {
  std::lock_guard<std::mutex> lock(mutex_);
  listed_ = false;
  return !disabled_;
}

std::optional<std::vector<kube::HpaRef>> HpaConflictCheck::Watched(
    bool* changed) {
  if (reflector_ == nullptr || reflector_->forbidden() ||
      !reflector_->LastError().ok()) {
    return std::nullopt;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!listed_) return std::nullopt;
  std::vector<kube::HpaRef> hpas;
  for (const auto& [name, hpa] : watched_) hpas.push_back(hpa);
  *changed = changed_;
  changed_ = false;
  return hpas;
}

bool HpaConflictCheck::WatchPending() const {
  return reflector_ != nullptr && !reflector_->forbidden();
}

std::vector<HpaConflict> HpaConflictCheck::CheckIfDue(TimePoint now) {
  if (disabled_) return {};
  bool changed = false;
  if (std::optional<std::vector<kube::HpaRef>> hpas = Watched(&changed)) {
    if (!changed && last_check_.has_value() && now - *last_check_ < kInterval)
      return {};
    last_check_ = now;
    return Report(*hpas);
  }
  if (WatchPending()) return {};
  return ListIfDue(now);
}

std::vector<HpaConflict> HpaConflictCheck::ListIfDue(TimePoint now) {
  if (last_check_.has_value() && now - *last_check_ < kInterval) return {};
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
                      "off (grant list and watch on "
                      "horizontalpodautoscalers.autoscaling to turn it on)";
      disabled_ = true;
    } else {
      VLOG(1) << "HPA check: " << hpas.status().message();
    }
    return {};
  }
  // Said once the list works, so a check that is off warns only once.
  if (reflector_ != nullptr && !watch_refusal_logged_) {
    LOG(WARNING)
        << reflector_->LastError().message()
        << "; listing horizontalpodautoscalers every "
        << std::chrono::duration_cast<std::chrono::minutes>(kInterval).count()
        << " minutes instead (grant watch on them to read nothing at "
           "rest)";
    watch_refusal_logged_ = true;
  }
  return Report(*hpas);
}

std::vector<HpaConflict> HpaConflictCheck::Report(
    const std::vector<kube::HpaRef>& hpas) {
  std::vector<HpaConflict> conflicts = FindHpaConflicts(hpas, targets_);
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
