// What vertical mode reads, each kept current so that a cycle reads memory
// and a change starts one within a second: the counted nodes, the target's
// pod template, and the config's source (a watched --configmap, or the
// --config-file's stamp), and with in-place resize the target's pods. app/
// builds them beside the loop and starts and joins them on its
// runtime::WatchSet; each change calls `notify` with its cause (the cycle
// driver's Notify).
#ifndef PROPSCALER_VERTICAL_VERTICAL_WATCHES_H_
#define PROPSCALER_VERTICAL_VERTICAL_WATCHES_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cluster/node_store.h"
#include "common/clock.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "kube/model/pod_template.h"
#include "runtime/watch_set.h"
#include "runtime/watched_collection.h"
#include "runtime/watched_object.h"
#include "vertical/config_file_watch.h"
#include "vertical/target_pod_store.h"
#include "vertical/vertical_autoscaler_options.h"

namespace propscaler {

struct VerticalWatches {
  using Notify = std::function<void(const std::string& cause)>;
  // The API roles the watches read through (kube/client/client.h).
  struct Clients {
    const kube::CountedNodeClient* nodes;
    const kube::WorkloadClient* workloads;     // the target
    const kube::ConfigMapClient* config_maps;  // --configmap
    const kube::PodResizeClient* pods;         // --resize=in-place: its pods
    static Clients Of(const kube::Client* client) {
      return {client, client, client, client};
    }
  };

  VerticalWatches(Clients api, const Clock* clock,
                  const VerticalOptions& options, const Notify& notify);

  // Every watch, on the set that starts and joins them (and lists the
  // nodes once for --once; the target and ConfigMap are read with GETs
  // then).
  void AddTo(runtime::WatchSet* set);

  NodeStore nodes;
  runtime::WatchedCollection<kube::NodeInfo> node_watch;
  runtime::WatchedObject<kube::PodTemplateWorkload> target;
  // With --configmap.
  std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>> config_map;
  // With --config-file (and no --configmap).
  std::optional<ConfigFileWatch> config_file;
  // With --resize=in-place on a server that serves pods/resize: the
  // target's pods (vertical/target_pod_source.h).
  TargetPodStore pods;
  std::unique_ptr<runtime::WatchedCollection<kube::ResizedPod>> pod_watch;
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_WATCHES_H_
