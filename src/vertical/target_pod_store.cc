#include "vertical/target_pod_store.h"

namespace propscaler {

kube::ReflectorSink<kube::ResizedPod> TargetPodStore::Sink(
    std::function<void()> changed) {
  kube::ReflectorSink<kube::ResizedPod> sink;
  sink.replace = [this, changed](std::vector<kube::ResizedPod> pods) {
    Replace(std::move(pods));
    changed();
  };
  sink.upsert = [this, changed](const kube::ResizedPod& pod) {
    Upsert(pod);
    changed();
  };
  sink.remove = [this, changed](const kube::ResizedPod& pod) {
    Remove(pod);
    changed();
  };
  return sink;
}

std::vector<kube::ResizedPod> TargetPodStore::Pods() const {
  MutexLock lock(&mutex_);
  std::vector<kube::ResizedPod> out;
  out.reserve(pods_.size());
  for (const auto& [name, pod] : pods_) out.push_back(pod);
  return out;
}

void TargetPodStore::Replace(std::vector<kube::ResizedPod> pods) {
  MutexLock lock(&mutex_);
  pods_.clear();
  for (kube::ResizedPod& pod : pods) {
    const std::string name = pod.name;
    pods_[name] = std::move(pod);
  }
}

void TargetPodStore::Upsert(const kube::ResizedPod& pod) {
  MutexLock lock(&mutex_);
  pods_[pod.name] = pod;
}

void TargetPodStore::Remove(const kube::ResizedPod& pod) {
  MutexLock lock(&mutex_);
  pods_.erase(pod.name);
}

}  // namespace propscaler
