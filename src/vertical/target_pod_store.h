// The target's pods, as in-place resize reads them, kept current by their
// watch (vertical/vertical_watches.h): a cycle reads them without a
// request. Thread-safe.
#ifndef PROPSCALER_VERTICAL_TARGET_POD_STORE_H_
#define PROPSCALER_VERTICAL_TARGET_POD_STORE_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/mutex.h"
#include "kube/controllers/reflector.h"
#include "kube/model/resized_pod.h"

namespace propscaler {

class TargetPodStore {
 public:
  // `changed` is called after every change the sink brings.
  kube::ReflectorSink<kube::ResizedPod> Sink(std::function<void()> changed);
  // Every pod, by name.
  std::vector<kube::ResizedPod> Pods() const EXCLUDES(mutex_);

 private:
  void Replace(std::vector<kube::ResizedPod> pods) EXCLUDES(mutex_);
  void Upsert(const kube::ResizedPod& pod) EXCLUDES(mutex_);
  void Remove(const kube::ResizedPod& pod) EXCLUDES(mutex_);

  mutable Mutex mutex_;
  std::map<std::string, kube::ResizedPod> pods_ GUARDED_BY(mutex_);
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_TARGET_POD_STORE_H_
