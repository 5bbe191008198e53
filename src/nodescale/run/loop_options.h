// What node-scale mode's loop is configured with: its settings (plan/
// node_scale_settings.h), its namespace and where the priority expander's
// config comes from; and the API roles it reads and writes through.
#ifndef PROPSCALER_NODESCALE_RUN_LOOP_OPTIONS_H_
#define PROPSCALER_NODESCALE_RUN_LOOP_OPTIONS_H_

#include <functional>
#include <string>

#include "common/clock.h"
#include "common/status.h"
#include "kube/client/client.h"
#include "nodescale/plan/node_scale_settings.h"

namespace propscaler::nodescale {

struct LoopOptions : NodeScaleSettings {
  std::string namespace_;
  // Reads Cluster Autoscaler's priority expander ConfigMap (app/ hands in
  // its watched copy); empty: a GET each loop that uses it.
  std::function<Result<kube::ConfigMap>()> read_priority_config;
};

// The API roles the loop uses (kube/client/client.h), not the whole client.
struct LoopClients {
  const kube::ClusterStateClient* cluster_state;  // CapacityBuffers
  const kube::ConfigMapClient* config_maps;       // the priority config
  const kube::ProvisioningRequestClient* requests;
  const kube::NodeActionClient* nodes;  // taints, evictions

  static LoopClients Of(const kube::Client* client) {
    return {client, client, client, client};
  }
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_LOOP_OPTIONS_H_
