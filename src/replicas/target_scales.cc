#include "replicas/target_scales.h"

#include <glog/logging.h>

#include <chrono>

namespace propscaler {
TargetScales::TargetScales(const kube::Client* client, std::string ns,
                           const std::vector<kube::ScaleTarget>& targets,
                           OnChange on_change)
    : client_(client),
      namespace_(std::move(ns)),
      targets_(targets),
      on_change_(std::move(on_change)) {}

TargetScales::~TargetScales() { Join(); }

void TargetScales::Start(const Clock* clock, StopSignal* stop) {
  for (const kube::ScaleTarget& target : targets_) {
    auto entry = std::make_unique<Entry>();
    entry->reflector = std::make_unique<kube::Reflector<kube::Scale>>(
        client_->TargetNamed(namespace_, target),
        kube::ReflectorSink<kube::Scale>{
            [this, target](std::vector<kube::Scale> items) {
              std::optional<kube::Scale> found;
              for (kube::Scale& item : items) {
                if (item.name == target.name) found = std::move(item);
              }
              Store(target, std::move(found), /*from_list=*/true);
            },
            [this, target](const kube::Scale& scale) {
              Store(target, scale, false);
            },
            [this, target](const kube::Scale&) {
              Store(target, std::nullopt, false);
            }},
        target.ToString() + " in namespace " + namespace_);
    kube::Reflector<kube::Scale>* reflector = entry->reflector.get();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      entries_[target.ToString()] = std::move(entry);
    }
    threads_.push_back(clock->StartThread([this, reflector, target, stop] {
      reflector->RunRetryingWhenForbidden(stop, [&](const Status& refused) {
        FallBackToPolling(target, refused);
        return true;
      });
    }));
  }
}

void TargetScales::Join() {
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

TargetScales::Entry* TargetScales::Find(const kube::ScaleTarget& target) const {
  auto it = entries_.find(target.ToString());
  return it == entries_.end() ? nullptr : it->second.get();
}

std::optional<kube::Scale> TargetScales::WatchedScale(
    const kube::ScaleTarget& target) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const Entry* entry = Find(target);
  if (entry == nullptr || !entry->listed || entry->reflector->forbidden() ||
      !entry->reflector->LastError().ok()) {
    return std::nullopt;
  }
  return entry->scale;
}

Result<kube::Scale> TargetScales::Read(const kube::ScaleTarget& target) const {
  // Absent from the watch too: the GET says so with the server's words.
  if (std::optional<kube::Scale> watched = WatchedScale(target)) {
    return *watched;
  }
  return client_->GetScale(namespace_, target);
}

void TargetScales::Wrote(const kube::ScaleTarget& target,
                         const kube::Scale& written) {
  std::lock_guard<std::mutex> lock(mutex_);
  Entry* entry = Find(target);
  if (entry != nullptr && entry->listed) entry->scale = written;
}

void TargetScales::Store(const kube::ScaleTarget& target,
                         std::optional<kube::Scale> scale, bool from_list) {
  bool changed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry* entry = Find(target);
    if (entry == nullptr) return;
    const std::optional<int64_t> before =
        entry->scale ? std::optional(entry->scale->spec_replicas)
                     : std::nullopt;
    const std::optional<int64_t> after =
        scale ? std::optional(scale->spec_replicas) : std::nullopt;
    // The first list after a start or a fallback may differ from what a GET
    // last saw; a cycle checks it.
    changed = before != after || (from_list && !entry->listed);
    entry->scale = std::move(scale);
    if (from_list) entry->listed = true;
  }
  if (changed) on_change_("replicas of " + target.ToString() + " changed");
}

void TargetScales::FallBackToPolling(const kube::ScaleTarget& target,
                                     const Status& refused) {
  std::lock_guard<std::mutex> lock(mutex_);
  Entry* entry = Find(target);
  entry->listed = false;
  entry->scale.reset();
  LOG_IF(WARNING, !entry->poll_logged)
      << refused.message() << "; reading the scale of " << target.ToString()
      << " with a GET every cycle (every --poll-period-seconds) instead, and "
         "trying to watch it again every "
      << std::chrono::duration_cast<std::chrono::minutes>(
             kube::Reflector<kube::Scale>::kForbiddenRetryPeriod)
             .count()
      << " minutes. Grant list and watch on the " << target.ApiKind()
      << " to undo other writers' changes within a second and read nothing "
         "at rest";
  entry->poll_logged = true;
}

}  // namespace propscaler
