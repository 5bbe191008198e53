// The list and watch of the target's pods: those its spec.selector
// selects, read from the target each time the list or the watch starts (a
// workload's selector is immutable in apps/v1, and the target is known
// only once it has been read). Until the target has been read, a list
// fails saying so, and the reflector tries again shortly.
#ifndef PROPSCALER_VERTICAL_TARGET_POD_SOURCE_H_
#define PROPSCALER_VERTICAL_TARGET_POD_SOURCE_H_

#include <functional>
#include <memory>
#include <string>

#include "kube/client/client.h"
#include "kube/model/list_watch.h"
#include "kube/model/resized_pod.h"

namespace propscaler {

class TargetPodSource : public kube::ListWatch<kube::ResizedPod> {
 public:
  // `selector`: the target's pod selector, or why it is not known.
  TargetPodSource(const kube::PodResizeClient* client, std::string ns,
                  std::function<Result<std::string>()> selector);

  Result<kube::ListPage<kube::ResizedPod>> List(
      const kube::ListCall<kube::ResizedPod>& call) override;
  Status Watch(
      const std::string& resource_version, int timeout_seconds,
      const std::function<bool(Result<kube::WatchEvent<kube::ResizedPod>>)>&
          on_event,
      const StopSignal* stop, const std::function<void()>& on_open) override;
  std::chrono::milliseconds RetryAfterLeft() const override;

 private:
  // The source for the selector of the moment.
  Status Select();

  const kube::PodResizeClient* client_;
  const std::string namespace_;
  const std::function<Result<std::string>()> selector_;
  std::string selected_;
  std::unique_ptr<kube::ListWatch<kube::ResizedPod>> source_;
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_TARGET_POD_SOURCE_H_
