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

#include "common/status.h"
#include "kube/api.h"

namespace propscaler::kube {

struct ObjectRef {
  std::string api_version;  // "apps/v1", "v1"
  std::string kind;         // "Deployment", "ConfigMap", "Node", "Pod"
  std::string namespace_;   // empty for cluster-scoped objects
  std::string name;
  std::string uid;  // optional
};

struct EventInfo {
  ObjectRef object;
  bool warning = false;  // type Warning, else Normal
  std::string reason;    // CamelCase, e.g. "ScaledReplicas"
  std::string message;
};

class EventRecorder {
 public:
  using Clock = std::chrono::steady_clock;

  // `component` is source.component. Events of cluster-scoped objects go to
  // namespace "default", the only one the API accepts for them.
  EventRecorder(const KubeApi* api, std::string component,
                Clock::duration repeat_after = std::chrono::minutes(10));

  // Posts the event unless an identical one was posted within repeat_after.
  // Returns true if it was posted.
  bool Record(const EventInfo& event);

  // The JSON body of the Event, for tests.
  std::string EncodeEvent(const EventInfo& event) const;

 private:
  const KubeApi* api_;
  const std::string component_;
  const Clock::duration repeat_after_;
  std::mutex mutex_;
  std::map<std::string, Clock::time_point> last_posted_;
  bool forbidden_ = false;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_EVENT_RECORDER_H_
