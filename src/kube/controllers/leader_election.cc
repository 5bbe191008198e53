#include "kube/controllers/leader_election.h"

#include <glog/logging.h>

#include "common/metrics.h"
#include "common/utc_time.h"

namespace propscaler::kube {
namespace {

constexpr char kLeaderGauge[] = "leader_election_master_status";

bool SameRecord(const Lease& a, const Lease& b) {
  return a.holder == b.holder && a.renew_time == b.renew_time &&
         a.resource_version == b.resource_version;
}

}  // namespace

LeaseAction DecideLeaseAction(const LeaseObservation& seen,
                              const std::string& identity, TimePoint now,
                              Duration lease_duration) {
  if (!seen.lease.has_value()) return LeaseAction::kCreate;
  if (seen.lease->holder == identity) return LeaseAction::kRenew;
  if (seen.lease->holder.empty()) return LeaseAction::kTakeOver;
  if (now - seen.changed_at >= lease_duration) return LeaseAction::kTakeOver;
  return LeaseAction::kWait;
}

LeaderElector::LeaderElector(const LeaseClient* api,
                             LeaderElectionConfig config, const Clock* clock)
    : api_(api), config_(std::move(config)), clock_(clock) {
  GlobalMetrics().DeclareGauge(
      kLeaderGauge,
      "1 while this candidate holds the Lease named by name and acts, else 0.");
}

void LeaderElector::Observe(const std::optional<Lease>& lease) {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool changed = lease.has_value() != seen_.lease.has_value() ||
                       (lease && !SameRecord(*lease, *seen_.lease));
  if (changed) seen_.changed_at = clock_->Now();
  seen_.lease = lease;
}

Result<Lease> LeaderElector::Write(LeaseAction action, const Lease& current) {
  Lease next = current;
  next.namespace_ = config_.namespace_;
  next.name = config_.name;
  if (next.holder != config_.identity) {
    if (action == LeaseAction::kTakeOver) ++next.transitions;
    next.holder = config_.identity;
  }
  next.lease_duration_seconds = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration)
          .count());
  next.renew_time = FormatMicroTime(clock_->Now());
  if (action == LeaseAction::kCreate) {
    Result<Lease> created = api_->CreateLease(next);
    if (!created.ok()) {
      return created.status().WithContext("creating " + DescribeLease(next));
    }
    return created;
  }
  Result<Lease> updated = api_->UpdateLease(next);
  if (!updated.ok()) {
    return updated.status().WithContext("updating " + DescribeLease(next) +
                                        " at resourceVersion " +
                                        next.resource_version);
  }
  return updated;
}

bool LeaderElector::TryAcquireOrRenew() {
  Result<Lease> current = api_->GetLease(config_.namespace_, config_.name);
  if (!current.ok() && current.status().code() != StatusCode::kNotFound) {
    LOG(WARNING) << "leader election: reading lease " << config_.namespace_
                 << "/" << config_.name << ": " << current.status().message();
    return IsLeader();
  }
  Observe(current.ok() ? std::optional<Lease>(*current) : std::nullopt);
  LeaseAction action;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    action = DecideLeaseAction(seen_, config_.identity, clock_->Now(),
                               config_.lease_duration);
  }
  if (action == LeaseAction::kWait) return IsLeader();
  const TimePoint attempt = clock_->Now();
  Result<Lease> written = Write(action, current.ok() ? *current : Lease{});
  if (!written.ok()) {
    LOG(WARNING) << "leader election: " << written.status().message();
    return IsLeader();
  }
  if (action != LeaseAction::kRenew) {
    LOG(INFO) << "leader election: " << config_.identity << " acquired lease "
              << config_.namespace_ << "/" << config_.name;
  }
  Observe(*written);
  bool gained;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    gained = !renewed_at_.has_value() ||
             attempt - *renewed_at_ >= config_.renew_deadline;
    renewed_at_ = attempt;
  }
  if (gained) clock_->Notify();
  return true;
}

bool LeaderElector::IsLeader() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return renewed_at_.has_value() &&
         clock_->Now() - *renewed_at_ < config_.renew_deadline;
}

LeaderView LeaderElector::View() const {
  LeaderView view{config_.namespace_ + "/" + config_.name, config_.identity, "",
                  IsLeader()};
  std::lock_guard<std::mutex> lock(mutex_);
  if (seen_.lease.has_value()) view.holder = seen_.lease->holder;
  return view;
}

void LeaderElector::Run(StopSignal* stop) {
  bool was_leader = false;
  while (!stop->stopped()) {
    const bool leader = TryAcquireOrRenew();
    GlobalMetrics().Set(kLeaderGauge, {{"name", config_.name}},
                        leader && IsLeader() ? 1 : 0);
    if (was_leader && !IsLeader()) {
      LOG(WARNING) << "leader election: " << config_.identity << " lost lease "
                   << config_.namespace_ << "/" << config_.name
                   << "; stopped acting";
    }
    was_leader = leader && IsLeader();
    if (stop->WaitFor(config_.retry_period)) return;
  }
}

}  // namespace propscaler::kube
