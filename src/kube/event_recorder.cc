#include "kube/event_recorder.h"

#include <glog/logging.h>

#include "kube/event_json.h"

namespace propscaler::kube {

namespace {

// The API accepts an Event of a cluster-scoped object (a Node) only in
// namespace "default" (or none): its namespace must match the object's.
std::string EventNamespace(const ObjectRef& object) {
  return object.namespace_.empty() ? "default" : object.namespace_;
}

}  // namespace

EventRecorder::EventRecorder(const KubeApi* api, std::string component,
                             Clock::duration repeat_after)
    : api_(api),
      component_(std::move(component)),
      repeat_after_(repeat_after) {}

std::string EventRecorder::EncodeEvent(const EventInfo& event) const {
  return EncodeEventJson(event, EventNamespace(event.object), component_,
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
  HttpRequest request;
  request.method = "POST";
  request.path =
      "/api/v1/namespaces/" + EventNamespace(event.object) + "/events";
  request.content_type = "application/json";
  request.body = EncodeEvent(event);
  Result<std::string> posted = api_->Call(request);
  if (!posted.ok() && posted.status().code() == StatusCode::kPermissionDenied) {
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
