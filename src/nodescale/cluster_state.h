// The pods and nodes node-scale mode knows, kept compact and current by the
// reflectors, copied out by the loop once per iteration. Thread-safe.
#ifndef PROPSCALER_NODESCALE_CLUSTER_STATE_H_
#define PROPSCALER_NODESCALE_CLUSTER_STATE_H_

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "kube/reflector.h"
#include "nodescale/live_objects.h"

namespace propscaler::nodescale {

class ClusterState {
 public:
  kube::ReflectorSink<LivePod> PodSink();
  kube::ReflectorSink<LiveNode> NodeSink();

  std::vector<LivePod> Pods() const;
  std::vector<LiveNode> Nodes() const;
  // Both collections were listed at least once.
  bool Synced() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, LivePod> pods_;  // by namespace/name
  std::map<std::string, LiveNode> nodes_;
  bool pods_synced_ = false;
  bool nodes_synced_ = false;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_CLUSTER_STATE_H_
