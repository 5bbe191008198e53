#include "vertical/target_pod_source.h"

namespace propscaler {

TargetPodSource::TargetPodSource(const kube::PodResizeClient* client,
                                 std::string ns,
                                 std::function<Result<std::string>()> selector)
    : client_(client),
      namespace_(std::move(ns)),
      selector_(std::move(selector)) {}

Status TargetPodSource::Select() {
  Result<std::string> selector = selector_();
  if (!selector.ok()) return selector.status();
  if (!source_ || *selector != selected_) {
    source_ = client_->ResizablePods(namespace_, *selector);
    selected_ = *selector;
  }
  return Status::Ok();
}

Result<kube::ListPage<kube::ResizedPod>> TargetPodSource::List(
    const kube::ListCall<kube::ResizedPod>& call) {
  if (Status selected = Select(); !selected.ok()) return selected;
  return source_->List(call);
}

Status TargetPodSource::Watch(
    const std::string& resource_version, int timeout_seconds,
    const std::function<bool(Result<kube::WatchEvent<kube::ResizedPod>>)>&
        on_event,
    const StopSignal* stop, const std::function<void()>& on_open) {
  if (Status selected = Select(); !selected.ok()) return selected;
  return source_->Watch(resource_version, timeout_seconds, on_event, stop,
                        on_open);
}

std::chrono::milliseconds TargetPodSource::RetryAfterLeft() const {
  return source_ ? source_->RetryAfterLeft() : std::chrono::milliseconds(0);
}

}  // namespace propscaler
