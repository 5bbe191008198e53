// Looks for HorizontalPodAutoscalers that scale one of the targets. Where
// RBAC allows, the namespace's HPAs are watched, so the check costs no
// request at rest and a new HPA is reported at the next cycle. With list but
// not watch, one list on the first cycle and then every kInterval (and the
// watch is tried again every few minutes); without list (RBAC written for
// cluster-proportional-autoscaler) the check turns itself off after one
// warning. A conflict is reported when it appears and again every kInterval
// while it lasts.
#ifndef PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_
#define PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/controllers/reflector.h"
#include "kube/model/scale_target.h"
#include "replicas/hpa_conflicts.h"

namespace propscaler {

class HpaConflictCheck {
 public:
  static constexpr std::chrono::minutes kInterval{5};

  HpaConflictCheck(const kube::HpaClient* api, std::string ns,
                   std::vector<kube::ScaleTarget> targets);
  ~HpaConflictCheck();

  // Watches the HPAs from a thread until `stop`. Without it (a single
  // cycle) each check lists them.
  void Start(const Clock* clock, StopSignal* stop);
  // Joins the thread (after `stop` was stopped).
  void Join();

  // The conflicts found when a check is due at `now`; empty otherwise or on
  // error. Logs a warning when a conflict first appears.
  std::vector<HpaConflict> CheckIfDue(TimePoint now);

 private:
  // The watched HPAs while the watch is current; nullopt otherwise.
  // `*changed`: whether they changed since the last call.
  std::optional<std::vector<kube::HpaRef>> Watched(bool* changed);
  // Whether a started watch has not yet listed (or lost its connection):
  // its copy comes soon, no list needed.
  bool WatchPending() const;
  std::vector<HpaConflict> ListIfDue(TimePoint now);
  // The watch thread's answer to a 403: keep retrying unless the check is
  // off.
  bool OnWatchForbidden();
  std::vector<HpaConflict> Report(const std::vector<kube::HpaRef>& hpas);

  const kube::HpaClient* api_;
  const std::string namespace_;
  const std::vector<kube::ScaleTarget> targets_;
  std::unique_ptr<kube::Reflector<kube::HpaRef>> reflector_;
  std::thread thread_;
  mutable std::mutex mutex_;  // guards the watched copy
  std::map<std::string, kube::HpaRef> watched_;
  bool listed_ = false;
  bool changed_ = false;
  std::atomic<bool> disabled_{false};  // list forbidden too: check off
  bool watch_refusal_logged_ = false;
  std::optional<TimePoint> last_check_;
  std::set<std::string> warned_;  // "hpa -> kind/name" already logged
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_
