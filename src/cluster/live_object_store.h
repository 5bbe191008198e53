// The pods and nodes node-scale mode knows, kept compact and current by the
// reflectors, copied out by the loop once per iteration. Thread-safe.
#ifndef PROPSCALER_CLUSTER_LIVE_OBJECT_STORE_H_
#define PROPSCALER_CLUSTER_LIVE_OBJECT_STORE_H_

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "kube/live_objects.h"
#include "kube/reflector.h"

namespace propscaler {

class LiveObjectStore {
 public:
  kube::ReflectorSink<kube::LivePod> PodSink();
  kube::ReflectorSink<kube::LiveNode> NodeSink();

  std::vector<kube::LivePod> Pods() const;
  std::vector<kube::LiveNode> Nodes() const;
  // Both collections were listed at least once.
  bool Synced() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, kube::LivePod> pods_;  // by namespace/name
  std::map<std::string, kube::LiveNode> nodes_;
  bool pods_synced_ = false;
  bool nodes_synced_ = false;
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_LIVE_OBJECT_STORE_H_
