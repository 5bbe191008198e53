// What replica mode reads, each kept current by a watch so that a cycle
// reads memory and a change starts one within a second: the counted nodes,
// the params ConfigMap, each target's scale (and the workloads
// --target-selector picks) and the namespace's
// HorizontalPodAutoscalers. app/ builds them beside the loop and starts and
// joins them on its runtime::WatchSet; each change calls `notify` with its
// cause (the cycle driver's Notify).
#ifndef PROPSCALER_REPLICAS_REPLICA_WATCHES_H_
#define PROPSCALER_REPLICAS_REPLICA_WATCHES_H_

#include <functional>
#include <memory>
#include <string>

#include "cluster/node_store.h"
#include "cluster/pod_count_store.h"
#include "common/clock.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "replicas/autoscaler_options.h"
#include "replicas/hpa_conflict_check.h"
#include "replicas/selected_target_store.h"
#include "replicas/target_scales.h"
#include "runtime/watch_set.h"
#include "runtime/watched_collection.h"
#include "runtime/watched_object.h"

namespace propscaler {

struct ReplicaWatches {
  using Notify = std::function<void(const std::string& cause)>;
  // The API roles the watches read through (kube/client/client.h).
  struct Clients {
    const kube::CountedNodeClient* nodes;
    const kube::CountedPodClient* pods;  // --pod-selector
    const kube::ConfigMapClient* config_maps;
    const kube::ScaleClient* scales;  // the targets, --target-selector
    const kube::HpaClient* hpas;
    static Clients Of(const kube::Client* client) {
      return {client, client, client, client, client};
    }
  };

  ReplicaWatches(Clients api, const Clock* clock,
                 const AutoscalerOptions& options, const Notify& notify);

  // Every watch, on the set that starts and joins them (and lists the
  // nodes once for --once; the rest are read with GETs then).
  void AddTo(runtime::WatchSet* set);

  NodeStore nodes;
  runtime::WatchedCollection<kube::NodeInfo> node_watch;
  // With --pod-selector: the pods counted, and their watch.
  std::unique_ptr<PodCountStore> pods;
  std::unique_ptr<runtime::WatchedCollection<kube::CountedPod>> pod_watch;
  std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>> config_map;
  // With --target-selector: the workloads it picks, and their watch.
  std::unique_ptr<SelectedTargetStore> selected;
  std::unique_ptr<runtime::WatchedCollection<kube::Scale>> selected_watch;
  TargetScales target_scales;
  HpaConflictCheck hpa_check;
  // With --hpa-floor=NAME: the HPA whose minReplicas is written
  // (--hpa-floor-auto reads hpa_check's HPAs).
  std::unique_ptr<runtime::WatchedObject<kube::HpaRef>> hpa_floor;
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_REPLICA_WATCHES_H_
