// What node-scale mode watches, each watch on one runtime::WatchSet and
// each missing grant named by its watch: pods (through the pending-pod
// batcher), nodes, PodDisruptionBudgets and the volume objects into the
// store; CSIStorageCapacities, CapacityBuffers, Karpenter NodePools (for
// the kwok provider) and, with
// --enable-provisioning-requests, ProvisioningRequests and PodTemplates
// where the server serves them; the ConfigMaps the loop reads each iteration
// (kwok's node groups, the priority expander's); and, with
// --cloud-provider=clusterapi, Cluster API's objects in the version Cluster
// Autoscaler would pick, in the management cluster when it is another.
#ifndef PROPSCALER_APP_NODE_SCALE_WATCHES_H_
#define PROPSCALER_APP_NODE_SCALE_WATCHES_H_

#include <memory>
#include <string>
#include <vector>

#include "app/node_scale_flags.h"
#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "common/status.h"
#include "kube/model/cluster_api.h"
#include "nodescale/provider/clusterapi_objects.h"
#include "nodescale/run/pending_pod_trigger.h"
#include "runtime/watch_set.h"
#include "runtime/watched_collection.h"
#include "runtime/watched_config_map.h"
#include "transport/api.h"
#include "transport/api_discovery.h"

namespace propscaler {

class NodeScaleWatches {
 public:
  // The store's watches and the ConfigMaps'; `settings.loop` gets the
  // priority expander's config reader when it needs one.
  NodeScaleWatches(const kube::KubeApi* api, const Clock* clock,
                   NodeScaleSettings* settings);
  NodeScaleWatches(const NodeScaleWatches&) = delete;
  NodeScaleWatches& operator=(const NodeScaleWatches&) = delete;

  // Cluster API's objects in `management`'s cluster: an error when its
  // version cannot be discovered.
  Status WatchClusterApi(const kube::KubeApi* management);
  // OK, or why a Cluster API watch's version stopped being served (the
  // process then exits, so that its restart discovers the one served now).
  Status ClusterApiStillServed() const;

  LiveObjectStore* state() { return &state_; }
  nodescale::PendingPodTrigger* pending() { return &pending_; }
  // Null with Cluster API.
  runtime::WatchedObject<kube::ConfigMap>* node_groups() {
    return node_groups_.get();
  }
  nodescale::ClusterApiObjects* cluster_api_objects() {
    return &cluster_api_objects_;
  }
  const kube::ClusterApiVersion& cluster_api() const { return cluster_api_; }
  // NodePools are watched into state() (the server serves them).
  bool node_pools_watched() const { return node_pools_watched_; }
  const runtime::WatchSet& set() const { return set_; }

 private:
  // `on_refused` and `excused` as WatchedCollection's and WatchSet::Add's.
  template <typename T>
  void Watch(std::string what, std::string grant_hint,
             typename runtime::WatchedCollection<T>::MakeSource source,
             kube::ReflectorSink<T> sink,
             std::function<void(const Status&)> on_refused = nullptr,
             std::function<bool()> excused = nullptr);
  // A volume kind's watch: while RBAC refuses it, the store marks the kind
  // unreadable (pods with claims are held, the others served) and its
  // failure is not staleness.
  template <typename T>
  void WatchVolumeKind(
      const char* kind, std::string grant_hint,
      typename runtime::WatchedCollection<T>::MakeSource source,
      kube::ReflectorSink<T> sink);
  void WatchVolumes();
  void WatchServedApis(bool provisioning_requests, bool node_pools);
  void WatchNodePools(const kube::ApiDiscovery& discovery);
  void WatchConfigMaps(NodeScaleSettings* settings);

  const kube::KubeApi* api_;
  const Clock* clock_;
  LiveObjectStore state_;
  nodescale::PendingPodTrigger pending_;
  nodescale::ClusterApiObjects cluster_api_objects_;
  kube::ClusterApiVersion cluster_api_;
  const kube::KubeApi* management_ = nullptr;
  bool node_pools_watched_ = false;
  // Each Cluster API watch with its resource.
  std::vector<std::pair<runtime::WatchedCollection<kube::ClusterApiObject>*,
                        std::string>>
      cluster_api_watches_;
  std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>> node_groups_;
  std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>> priorities_;
  // The collections' owners (each joins its thread when destroyed), after
  // the store and the trigger their sinks write into.
  std::vector<std::shared_ptr<void>> owned_;
  runtime::WatchSet set_;
};

}  // namespace propscaler

#endif  // PROPSCALER_APP_NODE_SCALE_WATCHES_H_
