// Leader election over a coordination.k8s.io Lease, as client-go does it, so
// that of several replicas exactly one acts.
//
// The leader renews the lease every retry period; it stops counting itself
// leader as soon as it has not renewed for the renew deadline (10s), before
// any other candidate may take the lease, which needs the record unchanged
// for the lease duration (15s) as measured on the candidate's own clock
// (never by comparing clocks across machines). The decision is a pure
// function of the observed record and the time; the elector adds the calls.
//
// The Lease is not a runtime::WatchedObject: every renewal is a
// compare-and-swap under the version last read or written, and a 409 (any
// other writer, or a late answer overtaken) reads it again, so a stale copy
// can only fail a renewal, never overwrite another candidate.
//
// Thread-safe: Run() renews on its own thread while IsLeader() is read by
// the loop. Becoming leader notifies the clock, so a loop waiting on it
// (runtime::CycleDriver) acts at once; the gauge
// leader_election_master_status{name} (client-go's) is 1 while leading.
#ifndef PROPSCALER_KUBE_CONTROLLERS_LEADER_ELECTION_H_
#define PROPSCALER_KUBE_CONTROLLERS_LEADER_ELECTION_H_

#include <mutex>
#include <optional>
#include <string>

#include "common/clock.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/model/lease.h"

namespace propscaler::kube {

struct LeaderElectionConfig {
  std::string namespace_;
  std::string name = "propscaler";
  std::string identity;
  Duration lease_duration = std::chrono::seconds(15);
  Duration renew_deadline = std::chrono::seconds(10);
  Duration retry_period = std::chrono::seconds(2);
};

// What a candidate last saw of the lease, and when (on its own clock) the
// record last changed.
struct LeaseObservation {
  std::optional<Lease> lease;  // nullopt: there is none
  TimePoint changed_at;
};

// Who leads, as /status shows it.
struct LeaderView {
  std::string lease;     // "namespace/name"
  std::string identity;  // this candidate's
  std::string holder;    // the lease's holder as last read; "" when none
  bool leader = false;   // this candidate acts
};

enum class LeaseAction { kCreate, kRenew, kTakeOver, kWait };

// Pure: whether to create the lease, renew ours, take over an expired one,
// or wait for its holder.
LeaseAction DecideLeaseAction(const LeaseObservation& seen,
                              const std::string& identity, TimePoint now,
                              Duration lease_duration);

class LeaderElector {
 public:
  LeaderElector(const LeaseClient* api, LeaderElectionConfig config,
                const Clock* clock);

  // One round: reads the lease and creates, renews or takes it over when
  // due. Returns whether this candidate holds it afterwards.
  bool TryAcquireOrRenew();
  // Whether this candidate renewed within the renew deadline.
  bool IsLeader() const;
  LeaderView View() const;
  // Rounds every retry period until `stop`.
  void Run(StopSignal* stop);
  const std::string& identity() const { return config_.identity; }

 private:
  Result<Lease> Write(LeaseAction action, const Lease& current);
  void Observe(const std::optional<Lease>& lease);

  const LeaseClient* api_;
  const LeaderElectionConfig config_;
  const Clock* clock_;
  mutable std::mutex mutex_;
  LeaseObservation seen_;
  std::optional<TimePoint> renewed_at_;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CONTROLLERS_LEADER_ELECTION_H_
