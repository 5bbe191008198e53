#include "runtime/cycle_driver.h"

#include <algorithm>

#include "common/free_heap_pages.h"
#include "common/metrics.h"
#include "common/sync_failure_limit.h"

namespace propscaler::runtime {
namespace {

constexpr char kLastCycle[] = "propscaler_last_cycle_timestamp_seconds";
constexpr char kLastSuccess[] =
    "propscaler_last_successful_cycle_timestamp_seconds";
constexpr char kFailures[] = "propscaler_cycle_failures_total";
constexpr char kBecameLeader[] = "became leader";

// The same three series in every mode, for the alerting rules.
void CountOutcome(TimePoint now, const Status& status) {
  Metrics& metrics = GlobalMetrics();
  const double seconds =
      std::chrono::duration<double>(now.time_since_epoch()).count();
  metrics.Set(kLastCycle, {}, seconds);
  if (status.ok()) {
    metrics.Set(kLastSuccess, {}, seconds);
  } else {
    metrics.Add(kFailures);
  }
}

}  // namespace

Status CheckStillLeading(const std::function<bool()>& may_act,
                         const std::string& what) {
  if (!may_act || may_act()) return Status::Ok();
  return Status::Unavailable("not " + what +
                             ": this replica no longer holds the lease");
}

CycleDriver::CycleDriver(const Clock* clock, HealthState* health,
                         CycleOptions options)
    : clock_(clock), health_(health), options_(options) {
  Metrics& metrics = GlobalMetrics();
  metrics.DeclareGauge(kLastCycle,
                       "Unix time of the last cycle that ended, whatever "
                       "its outcome.");
  metrics.DeclareGauge(kLastSuccess,
                       "Unix time of the last cycle that succeeded.");
  metrics.DeclareCounter(kFailures, "Cycles that failed.");
}

void CycleDriver::Notify(const std::string& cause) {
  {
    MutexLock lock(&mutex_);
    if (pending_cause_.find(cause) == std::string::npos) {
      pending_cause_ += pending_cause_.empty() ? cause : ", " + cause;
    }
    changed_ = true;
  }
  clock_->Notify();
}

bool CycleDriver::changed() const {
  MutexLock lock(&mutex_);
  return changed_;
}

bool CycleDriver::MayAct(const CycleHooks& hooks) const {
  return !hooks.may_act || hooks.may_act();
}

bool CycleDriver::BecameLeader(const CycleHooks& hooks) const {
  return hooks.may_act && !acting_ && hooks.may_act();
}

std::string CycleDriver::WaitForPeriodOrDue(StopSignal* stop,
                                            const CycleHooks& hooks) {
  if (!next_period_) next_period_ = clock_->Now() + options_.poll_period;
  while (!stop->stopped()) {
    health_->Heartbeat();
    const std::optional<TimePoint> due = hooks.due();
    const TimePoint wake = due ? std::min(*due, *next_period_) : *next_period_;
    stop->WaitUntil(wake,
                    [&] { return hooks.due() != due || BecameLeader(hooks); });
    if (BecameLeader(hooks)) return kBecameLeader;
    const TimePoint now = clock_->Now();
    const std::optional<TimePoint> due_now = hooks.due();
    if (due_now && now >= *due_now) return hooks.due_cause;
    if (now >= *next_period_) break;
  }
  next_period_.reset();
  return "poll period";
}

std::string CycleDriver::WaitForNextCycle(StopSignal* stop, bool ready,
                                          const CycleHooks& hooks) {
  if (ready && !options_.cycle_on_change && hooks.due) {
    return WaitForPeriodOrDue(stop, hooks);
  }
  health_->Heartbeat();
  const Duration wait =
      !ready && options_.ready_check != Duration::zero()
          ? std::min(options_.ready_check, options_.poll_period)
          : options_.poll_period;
  const TimePoint deadline = clock_->Now() + wait;
  const bool on_change = options_.cycle_on_change || !ready;
  stop->WaitUntil(deadline, [&] {
    return (on_change && changed()) || BecameLeader(hooks);
  });
  if (BecameLeader(hooks)) return kBecameLeader;
  // The first cycle, on the first complete lists, runs at once.
  const bool cycled_before = last_cycle_start_ != TimePoint{};
  if (options_.cycle_on_change && cycled_before && changed()) {
    const Duration since_last = clock_->Now() - last_cycle_start_;
    stop->WaitFor(
        std::max<Duration>(kSettleDelay, kCoalesceWindow - since_last));
  }
  MutexLock lock(&mutex_);
  std::string cause = changed_ ? pending_cause_ : "poll period";
  changed_ = false;
  pending_cause_.clear();
  return cause;
}

bool CycleDriver::NotReadyCounts(TimePoint now) {
  if (now - not_ready_counted_ < options_.poll_period) return false;
  not_ready_counted_ = now;
  return true;
}

int CycleDriver::Run(StopSignal* stop, const CycleHooks& hooks) {
  SyncFailureLimit failures(options_.max_sync_failures);
  not_ready_counted_ = clock_->Now();
  std::string cause = WaitForNextCycle(stop, /*ready=*/false, hooks);
  while (!stop->stopped()) {
    health_->Heartbeat();
    const TimePoint start = clock_->Now();
    Status status = hooks.ready();
    const bool ready = status.ok();
    if (!ready) health_->WaitingFor(status.message());
    if (!ready && !NotReadyCounts(start)) {
      cause = WaitForNextCycle(stop, ready, hooks);
      continue;
    }
    acting_ = MayAct(hooks);
    if (ready) health_->WaitingFor(acting_ ? "" : kStandby);
    if (ready && acting_) {
      last_cycle_start_ = start;
      status = hooks.cycle(start, cause);
      ReturnFreeHeapPages();
      // Lost the lease meanwhile: what was not written is the next
      // leader's to write.
      if (!MayAct(hooks)) status = Status::Ok();
    }
    const Status staleness = hooks.staleness ? hooks.staleness() : Status();
    health_->StalenessReported(staleness);
    status = JoinErrors({status, staleness});
    if (!ready) health_->WaitingFor(status.message());
    health_->CycleFinished(status);
    CountOutcome(clock_->Now(), status);
    if (hooks.finished) hooks.finished(start, status);
    if (failures.Reached(status)) {
      stop->Stop();
      return 1;
    }
    cause = WaitForNextCycle(stop, ready, hooks);
  }
  return 0;
}

Status CycleDriver::JoinErrors(const std::vector<Status>& statuses) {
  Status joined;
  std::string message;
  for (const Status& status : statuses) {
    if (status.ok()) continue;
    if (joined.ok()) joined = status;
    if (!message.empty()) message += "; ";
    message += status.message();
  }
  return joined.ok() ? joined : Status(joined.code(), message);
}

}  // namespace propscaler::runtime
