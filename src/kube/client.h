// The one seam between propscaler's loops and the Kubernetes API: typed calls
// for everything the loops do. KubeApi implements it over HTTP; tests use an
// in-memory cluster (tests/memcluster/). No URL and no JSON crosses it.
//
// Errors follow KubeApi's codes: kNotFound, kConflict (a stale
// resourceVersion), kGone, kUnauthenticated, kPermissionDenied, kUnavailable
// (429, 5xx, transport), kInvalidArgument (400, 422).
#ifndef PROPSCALER_KUBE_CLIENT_H_
#define PROPSCALER_KUBE_CLIENT_H_

#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "common/taint_filter.h"
#include "kube/event.h"
#include "kube/list_watch.h"
#include "kube/objects.h"
#include "kube/scale_target.h"

namespace propscaler::kube {

class Client {
 public:
  virtual ~Client() = default;

  // The nodes matching `label_selector` (passed to the server as is), as
  // replica mode counts them: `excluded` taints mark a node excluded.
  virtual std::unique_ptr<ListWatch<NodeInfo>> CountedNodes(
      const std::string& label_selector, const TaintFilter& excluded) const = 0;
  // The ConfigMap `name` in `ns` (a collection of at most one).
  virtual std::unique_ptr<ListWatch<ConfigMap>> ConfigMapNamed(
      const std::string& ns, const std::string& name) const = 0;

  virtual Result<ConfigMap> GetConfigMap(const std::string& ns,
                                         const std::string& name) const = 0;
  virtual Result<ConfigMap> CreateConfigMap(
      const ConfigMap& config_map) const = 0;
  // Replaces the map's data and sets its annotations, keeping every other
  // field as stored, under config_map.resource_version: kConflict when the
  // map changed since that version.
  virtual Result<ConfigMap> UpdateConfigMap(
      const ConfigMap& config_map) const = 0;

  virtual Result<Scale> GetScale(const std::string& ns,
                                 const ScaleTarget& target) const = 0;
  // A merge patch of spec.replicas (RBAC `patch`).
  virtual Result<Scale> PatchScale(const std::string& ns,
                                   const ScaleTarget& target,
                                   int64_t replicas) const = 0;
  // A PUT under `read.resource_version` (RBAC `update`): kConflict when the
  // scale changed since it was read.
  virtual Result<Scale> UpdateScale(const std::string& ns,
                                    const ScaleTarget& target,
                                    const Scale& read,
                                    int64_t replicas) const = 0;

  // The HorizontalPodAutoscalers in `ns`.
  virtual Result<std::vector<HpaRef>> ListHorizontalPodAutoscalers(
      const std::string& ns) const = 0;

  // Creates the Event in EventNamespace(event.object), from `component`,
  // stamped `now`.
  virtual Status CreateEvent(const EventInfo& event,
                             const std::string& component,
                             TimePoint now) const = 0;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CLIENT_H_
