#include "cluster/pod_count_store.h"

#include <utility>

namespace propscaler {

uint64_t PodCountStore::Key(std::string_view key) {
  return std::hash<std::string_view>{}(key);
}

bool PodCountStore::Replace(const std::vector<kube::CountedPod>& pods) {
  Stage(pods, /*first=*/true);
  return Commit();
}

void PodCountStore::Stage(const std::vector<kube::CountedPod>& page,
                          bool first) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (first) staged_.clear();
  for (const kube::CountedPod& pod : page) {
    if (pod.counted) staged_.insert(Key(pod.key));
  }
}

bool PodCountStore::Commit() {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool changed = staged_.size() != counted_.size();
  counted_ = std::move(staged_);
  staged_ = {};
  return changed;
}

bool PodCountStore::Upsert(const kube::CountedPod& pod) {
  std::lock_guard<std::mutex> lock(mutex_);
  return pod.counted ? counted_.insert(Key(pod.key)).second
                     : counted_.erase(Key(pod.key)) > 0;
}

bool PodCountStore::Remove(const kube::CountedPod& pod) {
  std::lock_guard<std::mutex> lock(mutex_);
  return counted_.erase(Key(pod.key)) > 0;
}

int64_t PodCountStore::Count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(counted_.size());
}

kube::ReflectorSink<kube::CountedPod> PodCountStore::Sink(
    std::function<void()> changed) {
  return {[this](std::vector<kube::CountedPod> pods) { Replace(pods); },
          [this, changed](const kube::CountedPod& pod) {
            if (Upsert(pod)) changed();
          },
          [this, changed](const kube::CountedPod& pod) {
            if (Remove(pod)) changed();
          },
          [this](std::vector<kube::CountedPod> page, bool first) {
            Stage(page, first);
          },
          [this, changed] {
            if (Commit()) changed();
          }};
}

}  // namespace propscaler
