// Posts core/v1 Events about objects (ScaledReplicas on a target,
// InvalidParams on a ConfigMap, ...), de-duplicated so that a persisting
// condition does not flood the API: the same object, reason and message is
// posted again only after `repeat_after`.
//
// Thread-safe. Failures to post are logged and otherwise ignored: Events are
// informational and must never stop the loop. A 403 (RBAC without events
// create) is logged once and no Event is tried again.
#ifndef PROPSCALER_KUBE_EVENT_RECORDER_H_
#define PROPSCALER_KUBE_EVENT_RECORDER_H_

#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "common/clock.h"
#include "common/status.h"
#include "kube/client.h"
#include "kube/event.h"

namespace propscaler::kube {

class EventRecorder {
 public:
  // `component` is source.component.
  EventRecorder(const Client* client, const Clock* clock, std::string component,
                Duration repeat_after = std::chrono::minutes(10));

  // Posts the event unless an identical one was posted within repeat_after.
  // Returns true if it was posted.
  bool Record(const EventInfo& event);

 private:
  const Client* client_;
  const Clock* clock_;
  const std::string component_;
  const Duration repeat_after_;
  std::mutex mutex_;
  std::map<std::string, TimePoint> last_posted_;
  TimePoint last_stamp_{};  // of the last Event, so each has its own name
  bool forbidden_ = false;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_EVENT_RECORDER_H_
