// The one cycle driver of replica and vertical mode (and node-scale mode's
// scan loop): a cycle every poll period, and one soon after each change a
// watch notifies (Notify, with its cause), bursts coalesced: a change after
// a quiet spell waits kSettleDelay for the rest of its moment, and cycles
// started by changes are at least kCoalesceWindow apart. The first cycle
// runs as soon as the hooks say the first lists are in.
//
// Each turn beats the health state, runs the cycle (or, once a poll period,
// reports what it still waits for), joins in the watches' staleness, tells
// the health state and the metrics (propscaler_last_cycle_timestamp_seconds,
// propscaler_last_successful_cycle_timestamp_seconds,
// propscaler_cycle_failures_total) the outcome, and counts consecutive
// failures against
// --max-sync-failures. A standby (CycleHooks::may_act) runs no cycles. All
// waits go through the stop signal's clock.
#ifndef PROPSCALER_RUNTIME_CYCLE_DRIVER_H_
#define PROPSCALER_RUNTIME_CYCLE_DRIVER_H_

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/health_state.h"
#include "common/mutex.h"
#include "common/status.h"
#include "common/stop_signal.h"

namespace propscaler::runtime {

struct CycleHooks {
  // OK when a cycle may run; else what it waits for (kUnavailable).
  std::function<Status()> ready;
  // One cycle, started at `start` for `cause` ("nodes changed", "poll
  // period", ...).
  std::function<Status(TimePoint start, const std::string& cause)> cycle;
  // OK, or why what the cycle read may be stale (a watch that failed).
  std::function<Status()> staleness;
  // Told every turn's outcome (optional): metrics, the status page.
  std::function<void(TimePoint start, const Status& outcome)> finished;
  // Optional, without cycle_on_change: when a cycle is due before the poll
  // period ends (node-scale's pending-pod batch), asked again whenever the
  // clock is notified; that cycle's cause is `due_cause`. Such cycles do not
  // move the poll period's rhythm.
  std::function<std::optional<TimePoint>()> due;
  std::string due_cause = "due";
  // Optional: whether this process may act (leader election). While it may
  // not, a turn runs no cycle and reports only what readiness and
  // staleness say (a standby's watches stay warm and watched); a cycle
  // during which the lease was lost is not a failure. Gaining it starts a
  // cycle at once (the elector notifies the clock).
  std::function<bool()> may_act;
};

struct CycleOptions {
  Duration poll_period = std::chrono::seconds(10);
  int max_sync_failures = 0;  // 0: never give up
  // Whether changes start cycles (node-scale's scan loop runs on its
  // period alone, a change only ends a wait for the first lists).
  bool cycle_on_change = true;
  // While not ready, how often readiness is looked at again besides on a
  // change (zero: every poll period), for owners whose stores notify none.
  Duration ready_check = Duration::zero();
};

// Right before a write: OK while `may_act` holds (empty: always), else why
// `what` is not written. A leader paused past its lease must not write when
// it wakes, even in the middle of a cycle.
Status CheckStillLeading(const std::function<bool()>& may_act,
                         const std::string& what);

class CycleDriver {
 public:
  // What a standby waits for (HealthState::Waiting).
  static constexpr char kStandby[] = "standby: another replica holds the lease";
  static constexpr auto kCoalesceWindow = std::chrono::milliseconds(250);
  static constexpr auto kSettleDelay = std::chrono::milliseconds(20);

  // Declares the cycle metrics every mode exposes.
  CycleDriver(const Clock* clock, HealthState* health, CycleOptions options);

  // Something changed: a cycle soon. Thread-safe.
  void Notify(const std::string& cause) EXCLUDES(mutex_);

  // Runs until `stop`; returns the exit code: 0, or 1 after
  // --max-sync-failures consecutive failed turns (`stop` is then stopped).
  int Run(StopSignal* stop, const CycleHooks& hooks);

  // Joins the failures among `statuses` into one Status (OK when there are
  // none), with the first failure's code.
  static Status JoinErrors(const std::vector<Status>& statuses);

 private:
  // Waits for a change or the poll period (only the period once `ready`
  // without cycle_on_change); returns the next cycle's cause.
  std::string WaitForNextCycle(StopSignal* stop, bool ready,
                               const CycleHooks& hooks) EXCLUDES(mutex_);
  // Without cycle_on_change: waits for the poll period, or for a cycle the
  // hooks say is due sooner.
  std::string WaitForPeriodOrDue(StopSignal* stop, const CycleHooks& hooks);
  bool changed() const EXCLUDES(mutex_);
  // Whether a turn that finds the first lists not yet in is reported and
  // counted as a failure: once a poll period, not on every change that
  // wakes the wait (one list in, another still coming).
  bool NotReadyCounts(TimePoint now);
  bool MayAct(const CycleHooks& hooks) const;
  // Whether a standby has become leader since its last turn.
  bool BecameLeader(const CycleHooks& hooks) const;

  const Clock* clock_;
  HealthState* health_;
  const CycleOptions options_;
  TimePoint last_cycle_start_{};          // the loop's thread only
  std::optional<TimePoint> next_period_;  // the loop's thread only
  bool acting_ = false;                   // the loop's thread only
  TimePoint not_ready_counted_{};         // the loop's thread only

  mutable Mutex mutex_;
  bool changed_ GUARDED_BY(mutex_) = false;
  std::string pending_cause_ GUARDED_BY(mutex_);
};

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_CYCLE_DRIVER_H_
