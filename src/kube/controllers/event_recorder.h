// Posts core/v1 Events about objects (ScaledReplicas on a target,
// InvalidParams on a ConfigMap, ...), de-duplicated so that a persisting
// condition does not flood the API: the same object, reason and message is
// posted again only after `repeat_after`.
//
// Thread-safe. Failures to post are logged and otherwise ignored: Events are
// informational and must never stop the loop. A 403 (RBAC without events
// create) is logged once and no Event is tried again.
//
// With a queue (`queue_limit` > 0, as the modes run it) Record() only
// queues and a thread of the recorder's own posts, so a loop that reports
// on 2,000 pods (TriggeredScaleUp, one Event each, as Cluster Autoscaler)
// does not wait for 2,000 requests before its next decision; past the
// limit Events are dropped and counted (propscaler_events_dropped_total),
// as client-go's broadcaster drops them. Without one (the virtual-time
// tests) Record() posts before it returns.
#ifndef PROPSCALER_KUBE_CONTROLLERS_EVENT_RECORDER_H_
#define PROPSCALER_KUBE_CONTROLLERS_EVENT_RECORDER_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "common/clock.h"
#include "common/status.h"
#include "kube/client/client.h"
#include "kube/model/event.h"

namespace propscaler::kube {

class EventRecorder {
 public:
  // `component` is source.component.
  EventRecorder(const EventClient* client, const Clock* clock,
                std::string component,
                Duration repeat_after = std::chrono::minutes(10),
                size_t queue_limit = 0);
  // Posts what is still queued for up to kDrainTime, drops the rest
  // (logged) and joins the sender.
  ~EventRecorder();
  static constexpr auto kDrainTime = std::chrono::seconds(5);
  EventRecorder(const EventRecorder&) = delete;
  EventRecorder& operator=(const EventRecorder&) = delete;

  // Posts (or queues) the event unless an identical one was recorded
  // within repeat_after. Returns true if it was posted (or queued).
  bool Record(const EventInfo& event);

  // How many Events are remembered to hold back their repeats: only those
  // recorded within the last two repeat periods (every message differs,
  // with its counts or pod names, so keeping all would grow for ever).
  size_t remembered() const;

 private:
  struct Stamped {
    EventInfo event;
    TimePoint stamp;
  };
  bool Post(const Stamped& stamped);
  void SendQueued();

  const EventClient* client_;
  const Clock* clock_;
  const std::string component_;
  const Duration repeat_after_;
  const size_t queue_limit_;
  mutable std::mutex mutex_;
  std::map<std::string, TimePoint> last_posted_;
  TimePoint last_forgotten_{};  // when old entries were last dropped
  TimePoint last_stamp_{};      // of the last Event, so each has its own name
  bool forbidden_ = false;
  std::deque<Stamped> queue_;
  std::condition_variable queued_;
  std::condition_variable drained_;
  bool posting_ = false;
  bool stopping_ = false;
  std::thread sender_;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CONTROLLERS_EVENT_RECORDER_H_
