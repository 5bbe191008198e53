#include "replicas/hpa_conflict_check.h"

#include <glog/logging.h>

#include "kube/model/resource_version.h"

namespace propscaler {

HpaConflictCheck::HpaConflictCheck(const Clock* clock,
                                   const kube::HpaClient* api, std::string ns,
                                   std::string floor_hpa, bool floor_auto,
                                   OnChange on_change)
    : namespace_(std::move(ns)),
      floor_hpa_(std::move(floor_hpa)),
      floor_auto_(floor_auto),
      on_change_(floor_auto ? std::move(on_change) : [](const std::string&) {}),
      watch_(
          clock,
          [api, ns = namespace_] { return api->HorizontalPodAutoscalers(ns); },
          Sink(),
          {.what = "horizontalpodautoscalers in namespace " + namespace_,
           .grant_hint = "",
           .on_refused =
               [this](const Status& refused) {
                 MutexLock lock(&mutex_);
                 watch_refusal_ = refused.message();
               }},
          on_change_) {}

kube::ReflectorSink<kube::HpaRef> HpaConflictCheck::Sink() {
  return {[this](std::vector<kube::HpaRef> items) {
            MutexLock lock(&mutex_);
            hpas_.clear();
            for (kube::HpaRef& item : items) {
              std::string name = item.name;
              hpas_.emplace(std::move(name), std::move(item));
            }
            changed_ = true;
          },
          [this](const kube::HpaRef& hpa) {
            {
              MutexLock lock(&mutex_);
              auto known = hpas_.find(hpa.name);
              // Older than the answer to propscaler's own write: dropped.
              if (known != hpas_.end() &&
                  kube::CompareResourceVersions(
                      hpa.resource_version, known->second.resource_version) ==
                      kube::VersionOrder::kOlder) {
                return;
              }
              hpas_[hpa.name] = hpa;
              changed_ = true;
            }
            on_change_("horizontalpodautoscaler " + hpa.name + " changed");
          },
          [this](const kube::HpaRef& hpa) {
            {
              MutexLock lock(&mutex_);
              hpas_.erase(hpa.name);
              changed_ = true;
            }
            on_change_("horizontalpodautoscaler " + hpa.name + " deleted");
          }};
}

void HpaConflictCheck::Start(StopSignal* stop) {
  started_ = true;
  watch_.Start(stop);
}

void HpaConflictCheck::Join() { watch_.Join(); }

std::vector<kube::HpaRef> HpaConflictCheck::Copy(bool* changed) {
  MutexLock lock(&mutex_);
  std::vector<kube::HpaRef> hpas;
  for (const auto& [name, hpa] : hpas_) hpas.push_back(hpa);
  *changed = changed_;
  changed_ = false;
  return hpas;
}

std::optional<std::vector<kube::HpaRef>> HpaConflictCheck::Watched() const {
  // Without a watch (a single cycle), the list this cycle's check made.
  const bool current =
      started_ ? !watch_.polled() && Watching() : listed_unwatched_;
  if (!current) return std::nullopt;
  MutexLock lock(&mutex_);
  std::vector<kube::HpaRef> hpas;
  for (const auto& [name, hpa] : hpas_) hpas.push_back(hpa);
  return hpas;
}

void HpaConflictCheck::Wrote(const kube::HpaRef& written) {
  MutexLock lock(&mutex_);
  auto it = hpas_.find(written.name);
  if (it != hpas_.end() &&
      kube::CompareResourceVersions(written.resource_version,
                                    it->second.resource_version) ==
          kube::VersionOrder::kNewer) {
    it->second = written;
  }
}

std::string HpaConflictCheck::watch_refusal() const {
  MutexLock lock(&mutex_);
  return watch_refusal_;
}

bool HpaConflictCheck::Watching() const {
  return watch_.synced() && watch_.LastError().ok();
}

std::vector<HpaConflict> HpaConflictCheck::CheckIfDue(
    TimePoint now, const std::vector<kube::ScaleTarget>& targets) {
  if (disabled_) return {};
  // New targets (--target-selector's) are checked at once, as new HPAs are.
  const bool new_targets = targets != targets_;
  targets_ = targets;
  if (started_ && !watch_.polled()) {
    // Until the watch has listed (or while it reconnects) its copy comes
    // soon: no list needed.
    if (!Watching()) return {};
    bool changed = false;
    std::vector<kube::HpaRef> hpas = Copy(&changed);
    if (!changed && !new_targets && last_check_.has_value() &&
        now - *last_check_ < kInterval) {
      return {};
    }
    last_check_ = now;
    return Report(hpas);
  }
  return ListIfDue(now);
}

std::vector<HpaConflict> HpaConflictCheck::ListIfDue(TimePoint now) {
  if (last_check_.has_value() && now - *last_check_ < kInterval) return {};
  last_check_ = now;
  if (Status listed = watch_.ListOnce(); !listed.ok()) {
    const StatusCode code = listed.code();
    if (code == StatusCode::kPermissionDenied ||
        code == StatusCode::kNotFound) {
      LOG(WARNING) << "cannot list horizontalpodautoscalers in namespace "
                   << namespace_ << " (" << listed.message()
                   << "); the check for an HPA scaling the same target is "
                      "off (grant list and watch on "
                      "horizontalpodautoscalers.autoscaling to turn it on)";
      disabled_ = true;
      watch_.StopRetrying();
    } else {
      VLOG(1) << "HPA check: " << listed.message();
    }
    return {};
  }
  if (!started_) listed_unwatched_ = true;
  // Said once the list works, so a check that is off warns only once.
  if (started_ && !watch_refusal_logged_) {
    LOG(WARNING)
        << watch_refusal() << "; listing horizontalpodautoscalers every "
        << std::chrono::duration_cast<std::chrono::minutes>(kInterval).count()
        << " minutes instead (grant watch on them to read nothing at "
           "rest)";
    watch_refusal_logged_ = true;
  }
  bool changed = false;
  return Report(Copy(&changed));
}

std::vector<HpaConflict> HpaConflictCheck::Report(
    const std::vector<kube::HpaRef>& hpas) {
  std::vector<HpaConflict> conflicts = FindHpaConflicts(hpas, targets_);
  std::map<std::string, int> per_target;
  for (const HpaConflict& conflict : conflicts) {
    ++per_target[conflict.target.ToString()];
  }
  std::erase_if(conflicts, [&](const HpaConflict& conflict) {
    return conflict.hpa == floor_hpa_ ||
           (floor_auto_ && per_target[conflict.target.ToString()] == 1);
  });
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
