// The scales of replica mode's targets, each a runtime::WatchedObject: kept
// current by watching the target workload, so a cycle reads it without a
// request and a manual `kubectl scale` starts a cycle at once; read with a
// GET every cycle where RBAC forbids the watch (cluster-proportional-
// autoscaler's RBAC grants only get and update on the scale subresource).
// The answer to propscaler's own write never overwrites a newer change the
// watch brought first. The targets --target-selector picks come from their
// own watch (replicas/selected_target_store.h).
#ifndef PROPSCALER_REPLICAS_TARGET_SCALES_H_
#define PROPSCALER_REPLICAS_TARGET_SCALES_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "kube/model/scale_target.h"
#include "replicas/selected_target_store.h"
#include "runtime/watched_object.h"

namespace propscaler {

class TargetScales {
 public:
  // Called from a watching thread when a target's replicas changed: `cause`
  // says which.
  using OnChange = std::function<void(const std::string& cause)>;

  // `selected` (may be null) outlives this.
  TargetScales(const kube::ScaleClient* client, const Clock* clock,
               std::string ns, const std::vector<kube::ScaleTarget>& targets,
               SelectedTargetStore* selected, OnChange on_change);

  // Watches every target until `stop`; Join() after `stop`.
  void Start(StopSignal* stop);
  void Join();

  // --target's targets, then the selected ones --target does not name.
  std::vector<kube::ScaleTarget> Targets() const;

  // The target's scale: the watched copy while its watch is current, else a
  // GET of the scale subresource (held back while RBAC refuses it: the
  // refusal comes back without a request).
  Result<kube::Scale> Read(const kube::ScaleTarget& target);
  // A GET, after a conflict.
  Result<kube::Scale> ReadFresh(const kube::ScaleTarget& target);
  // The server's answer to propscaler's write of the target's scale.
  void Wrote(const kube::ScaleTarget& target, const kube::Scale& written);

 private:
  // The watch of a --target target; null for a selected one.
  runtime::WatchedObject<kube::Scale>* Of(const kube::ScaleTarget& target);

  const kube::ScaleClient* client_;
  const std::string namespace_;
  std::vector<kube::ScaleTarget> named_;
  SelectedTargetStore* const selected_;

  std::map<std::string, std::unique_ptr<runtime::WatchedObject<kube::Scale>>>
      watched_;  // by "kind/name"
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_TARGET_SCALES_H_
