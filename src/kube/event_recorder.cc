#include "kube/event_recorder.h"

#include <glog/logging.h>

#include <algorithm>

namespace propscaler::kube {

EventRecorder::EventRecorder(const Client* client, const Clock* clock,
                             std::string component, Duration repeat_after)
    : client_(client),
      clock_(clock),
      component_(std::move(component)),
      repeat_after_(repeat_after) {}

bool EventRecorder::Record(const EventInfo& event) {
  const std::string key = event.object.kind + "/" + event.object.namespace_ +
                          "/" + event.object.name + "/" + event.reason + "/" +
                          event.message;
  const TimePoint now = clock_->Now();
  TimePoint stamp;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (forbidden_) return false;
    auto it = last_posted_.find(key);
    if (it != last_posted_.end() && now - it->second < repeat_after_) {
      return false;
    }
    last_posted_[key] = now;
    // Event names are the object's name and the time: two Events in one
    // clock tick (always, in virtual time) would have the same name.
    stamp = std::max(now, last_stamp_ + Duration(1));
    last_stamp_ = stamp;
  }
  const Status posted = client_->CreateEvent(event, component_, stamp);
  if (posted.code() == StatusCode::kPermissionDenied) {
    std::lock_guard<std::mutex> lock(mutex_);
    LOG_IF(WARNING, !forbidden_)
        << "cannot post Events (" << posted.message()
        << "); carrying on without them (grant create on events to see "
           "them in kubectl get events)";
    forbidden_ = true;
    return false;
  }
  LOG_IF(WARNING, !posted.ok())
      << "posting event " << event.reason << " on " << event.object.kind << " "
      << event.object.name << ": " << posted.message();
  return posted.ok();
}

}  // namespace propscaler::kube
