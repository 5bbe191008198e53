// A named ConfigMap as a WatchedObject (replica mode's params, vertical
// mode's --configmap): watched where RBAC allows, else read with a GET
// every cycle; every change notified as `changed_cause`.
#ifndef PROPSCALER_RUNTIME_WATCHED_CONFIG_MAP_H_
#define PROPSCALER_RUNTIME_WATCHED_CONFIG_MAP_H_

#include <memory>
#include <string>

#include "common/clock.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "runtime/watched_object.h"

namespace propscaler::runtime {

inline std::unique_ptr<WatchedObject<kube::ConfigMap>> WatchConfigMap(
    const Clock* clock, const kube::ConfigMapClient* client,
    const std::string& ns, const std::string& name, std::string changed_cause,
    WatchedObject<kube::ConfigMap>::OnChange on_change) {
  return std::make_unique<WatchedObject<kube::ConfigMap>>(
      clock, client->ConfigMapNamed(ns, name),
      [client, ns, name] { return client->GetConfigMap(ns, name); },
      WatchedObject<kube::ConfigMap>::Options{
          .name = name,
          .what = "configmap " + ns + "/" + name,
          .grant_hint =
              "Grant list and watch on it to react to edits within a second",
          .changed_cause = std::move(changed_cause)},
      std::move(on_change));
}

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_WATCHED_CONFIG_MAP_H_
