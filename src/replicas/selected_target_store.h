// The targets --target-selector picks, kept from the watch of their kind
// selected by labels: each workload's name and scale (its spec.replicas
// and resourceVersion, as the scale subresource would give them), so a
// cycle reads them without a request, a workload that appears or starts to
// match is scaled within a second, and one that goes or stops matching is
// dropped. Like runtime::WatchedObject, a copy never goes backwards: the
// answer to propscaler's own write replaces it only when it is newer, and
// older watch events are dropped. Thread-safe.
#ifndef PROPSCALER_REPLICAS_SELECTED_TARGET_STORE_H_
#define PROPSCALER_REPLICAS_SELECTED_TARGET_STORE_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/mutex.h"
#include "kube/controllers/reflector.h"
#include "kube/model/objects.h"
#include "kube/model/scale_target.h"

namespace propscaler {

class SelectedTargetStore {
 public:
  // Called from the watch's thread with what changed, e.g. "deployment/x
  // selected by --target-selector".
  using OnChange = std::function<void(const std::string& cause)>;

  explicit SelectedTargetStore(kube::TargetSelector selector);

  // The workloads selected now, by name.
  std::vector<kube::ScaleTarget> Targets() const EXCLUDES(mutex_);
  // The scale of the selected workload `name`; nullopt when it is not
  // selected (any more).
  std::optional<kube::Scale> Read(const std::string& name) const
      EXCLUDES(mutex_);
  // The server's answer to propscaler's write of a selected workload.
  void Wrote(const kube::Scale& written) EXCLUDES(mutex_);

  kube::ReflectorSink<kube::Scale> Sink(OnChange on_change);

  const kube::TargetSelector& selector() const { return selector_; }

 private:
  // Each returns the cause of the change, or "" when nothing a cycle reads
  // changed.
  std::string Replace(std::vector<kube::Scale> items) EXCLUDES(mutex_);
  std::string Upsert(const kube::Scale& item) EXCLUDES(mutex_);
  std::string Remove(const kube::Scale& item) EXCLUDES(mutex_);
  std::string Ref(const std::string& name) const;

  const kube::TargetSelector selector_;
  mutable Mutex mutex_;
  std::map<std::string, kube::Scale> selected_ GUARDED_BY(mutex_);
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_SELECTED_TARGET_STORE_H_
