// The pods replica mode counts for podsPerReplica (those matching
// --pod-selector, Running or Pending), fed by their watch. Only a 64-bit
// hash of each counted pod's namespace/name is kept (about 40 bytes a pod
// with the set's overhead): 150,000 pods take a few MiB. Two counted pods
// share a hash with a probability of about n^2 / 2^65 (6e-10 at 150,000);
// they would count as one. Thread-safe.
#ifndef PROPSCALER_CLUSTER_POD_COUNT_STORE_H_
#define PROPSCALER_CLUSTER_POD_COUNT_STORE_H_

#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "kube/controllers/reflector.h"
#include "kube/model/counted_pod.h"

namespace propscaler {

class PodCountStore {
 public:
  // Each returns true when the count changed.
  bool Replace(const std::vector<kube::CountedPod>& pods);
  void Stage(const std::vector<kube::CountedPod>& page, bool first);
  bool Commit();
  bool Upsert(const kube::CountedPod& pod);
  bool Remove(const kube::CountedPod& pod);

  int64_t Count() const;

  // The watch's sink; `changed` is called when an event changed the count.
  kube::ReflectorSink<kube::CountedPod> Sink(std::function<void()> changed);

 private:
  static uint64_t Key(std::string_view key);

  mutable std::mutex mutex_;
  std::unordered_set<uint64_t> counted_;
  std::unordered_set<uint64_t> staged_;
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_POD_COUNT_STORE_H_
