// Looks for HorizontalPodAutoscalers that scale one of the targets. Where
// RBAC allows, the namespace's HPAs are watched (a runtime watched
// collection), so the check costs no request at rest and a new HPA is
// reported at the next cycle. With list but not watch, one list on the first
// cycle and then every kInterval (and the watch is tried again every few
// minutes); without list (RBAC written for cluster-proportional-autoscaler)
// the check turns itself off after one warning. A conflict is reported when
// it appears and again every kInterval while it lasts.
#ifndef PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_
#define PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/mutex.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/model/scale_target.h"
#include "replicas/hpa_conflicts.h"
#include "runtime/watched_collection.h"

namespace propscaler {

class HpaConflictCheck {
 public:
  static constexpr std::chrono::minutes kInterval{5};

  using OnChange = std::function<void(const std::string& cause)>;

  // `floor_hpa`: the HPA --hpa-floor names ("" when none), which is meant
  // to scale its target and is never reported; `floor_auto`
  // (--hpa-floor-auto): an HPA that alone scales a target is not reported
  // either, and since the floors are read from this watch, `on_change` is
  // told when the HPAs are first listed and whenever one changes (a cycle
  // need not wait for the poll period to see them).
  HpaConflictCheck(const Clock* clock, const kube::HpaClient* api,
                   std::string ns, std::string floor_hpa, bool floor_auto,
                   OnChange on_change);

  // Watches the HPAs until `stop`. Without it (a single cycle) each check
  // lists them.
  void Start(StopSignal* stop);
  // Joins the watch (after `stop` was stopped).
  void Join();

  // The conflicts with `targets` found when a check is due at `now` (or
  // the targets changed since the last call); empty otherwise or on error.
  // Logs a warning when a conflict first appears.
  std::vector<HpaConflict> CheckIfDue(
      TimePoint now, const std::vector<kube::ScaleTarget>& targets);

  // The namespace's HPAs as watched (without a watch, a single cycle: as
  // listed by its check); nullopt while they are not current (not listed
  // yet, the watch failing, or refused by RBAC).
  std::optional<std::vector<kube::HpaRef>> Watched() const EXCLUDES(mutex_);
  // The server's answer to propscaler's write of one of them.
  void Wrote(const kube::HpaRef& written) EXCLUDES(mutex_);

 private:
  kube::ReflectorSink<kube::HpaRef> Sink();
  // The HPAs as last watched or listed; `*changed`: whether they changed
  // since the last call.
  std::vector<kube::HpaRef> Copy(bool* changed) EXCLUDES(mutex_);
  // Whether the watch is current (listed, and no error since).
  bool Watching() const;
  std::vector<HpaConflict> ListIfDue(TimePoint now);
  std::vector<HpaConflict> Report(const std::vector<kube::HpaRef>& hpas);
  std::string watch_refusal() const EXCLUDES(mutex_);

  const std::string namespace_;
  const std::string floor_hpa_;
  const bool floor_auto_;
  const OnChange on_change_;  // a no-op unless floor_auto_
  mutable Mutex mutex_;       // the copy, written by the watch's thread
  std::map<std::string, kube::HpaRef> hpas_ GUARDED_BY(mutex_);
  bool changed_ GUARDED_BY(mutex_) = false;
  std::string watch_refusal_ GUARDED_BY(mutex_);
  // After what its sink writes to: its thread is joined first.
  runtime::WatchedCollection<kube::HpaRef> watch_;

  // Touched only by the loop's thread.
  bool started_ = false;
  bool disabled_ = false;  // list forbidden too: check off
  bool watch_refusal_logged_ = false;
  bool listed_unwatched_ = false;  // listed by a check without a watch
  std::optional<TimePoint> last_check_;
  std::vector<kube::ScaleTarget> targets_;  // as last checked
  std::set<std::string> warned_;            // "hpa -> kind/name" already logged
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_HPA_CONFLICT_CHECK_H_
