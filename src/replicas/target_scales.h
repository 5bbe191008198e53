// The scales of replica mode's targets, kept current by watching each target
// workload (a list and watch selected by metadata.name, which RBAC's
// resourceNames can grant), so a cycle reads them without a request and a
// manual `kubectl scale` starts a cycle at once. Where RBAC forbids watching
// a target (cluster-proportional-autoscaler's RBAC grants only get and update
// on its scale), that target's scale is read with a GET every cycle, and the
// watch is tried again every few minutes.
#ifndef PROPSCALER_REPLICAS_TARGET_SCALES_H_
#define PROPSCALER_REPLICAS_TARGET_SCALES_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/client.h"
#include "kube/objects.h"
#include "kube/reflector.h"
#include "kube/scale_target.h"

namespace propscaler {

class TargetScales {
 public:
  // Called from a watching thread when a target's replicas changed (not for
  // the first list): `cause` says which.
  using OnChange = std::function<void(const std::string& cause)>;

  TargetScales(const kube::Client* client, std::string ns,
               const std::vector<kube::ScaleTarget>& targets,
               OnChange on_change);
  ~TargetScales();

  // Starts one watching thread per target; they run until `stop`.
  void Start(const Clock* clock, StopSignal* stop);
  // Joins the threads (after `stop` was stopped).
  void Join();

  // The target's scale: the watched copy while its watch is current, else a
  // GET of the scale subresource.
  Result<kube::Scale> Read(const kube::ScaleTarget& target) const;
  // A scale the server returned for a write: the copy is at least this new.
  void Wrote(const kube::ScaleTarget& target, const kube::Scale& written);

 private:
  struct Entry {
    std::unique_ptr<kube::Reflector<kube::Scale>> reflector;
    bool listed = false;  // a list arrived since the watch was (re)started
    std::optional<kube::Scale> scale;
    bool poll_logged = false;
  };

  void Store(const kube::ScaleTarget& target, std::optional<kube::Scale> scale,
             bool from_list);
  // The watched copy while the watch is current and holds the target.
  std::optional<kube::Scale> WatchedScale(
      const kube::ScaleTarget& target) const;
  void FallBackToPolling(const kube::ScaleTarget& target,
                         const Status& refused);
  // The entry of `target`; nullptr when not started.
  Entry* Find(const kube::ScaleTarget& target) const;

  const kube::Client* client_;
  const std::string namespace_;
  const std::vector<kube::ScaleTarget> targets_;
  const OnChange on_change_;
  mutable std::mutex mutex_;  // guards every Entry but its reflector
  std::map<std::string, std::unique_ptr<Entry>> entries_;  // "kind/name"
  std::vector<std::thread> threads_;
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_TARGET_SCALES_H_
