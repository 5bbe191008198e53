#include "kube/event_recorder.h"

#include <glog/logging.h>

#include "kube/event_json.h"

namespace propscaler::kube {

EventRecorder::EventRecorder(const KubeApi* api, std::string component,
                             std::string default_namespace,
                             Clock::duration repeat_after)
    : api_(api),
      component_(std::move(component)),
      default_namespace_(std::move(default_namespace)),
      repeat_after_(repeat_after) {}

std::string EventRecorder::EncodeEvent(const EventInfo& event) const {
  const std::string& ns = event.object.namespace_.empty()
                              ? default_namespace_
                              : event.object.namespace_;
  return EncodeEventJson(event, ns, component_,
                         std::chrono::system_clock::now());
}

bool EventRecorder::Record(const EventInfo& event) {
  const std::string key = event.object.kind + "/" + event.object.namespace_ +
                          "/" + event.object.name + "/" + event.reason + "/" +
                          event.message;
  const Clock::time_point now = Clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (forbidden_) return false;
    auto it = last_posted_.find(key);
    if (it != last_posted_.end() && now - it->second < repeat_after_) {
      return false;
    }
    last_posted_[key] = now;
  }
  const std::string& ns = event.object.namespace_.empty()
                              ? default_namespace_
                              : event.object.namespace_;
  HttpRequest request;
  request.method = "POST";
  request.path = "/api/v1/namespaces/" + ns + "/events";
  request.content_type = "application/json";
  request.body = EncodeEvent(event);
  Result<std::string> posted = api_->Call(request);
  if (!posted.ok() &&
      posted.status().code() == StatusCode::kPermissionDenied) {
    std::lock_guard<std::mutex> lock(mutex_);
    LOG_IF(WARNING, !forbidden_)
        << "cannot post Events (" << posted.status().message()
        << "); carrying on without them (grant create on events to see "
           "them in kubectl get events)";
    forbidden_ = true;
    return false;
  }
  LOG_IF(WARNING, !posted.ok())
      << "posting event " << event.reason << " on " << event.object.kind << " "
      << event.object.name << ": " << posted.status().message();
  return posted.ok();
}

}  // namespace propscaler::kube
