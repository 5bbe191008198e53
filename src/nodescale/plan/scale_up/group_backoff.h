// Backoff of node groups whose scale-up failed, as CA's
// --initial-node-group-backoff-duration (5m) and
// --max-node-group-backoff-duration (30m): each failure in a row doubles the
// wait, capped; a success clears it. Pure: the caller passes the time.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_UP_GROUP_BACKOFF_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_UP_GROUP_BACKOFF_H_

#include <map>
#include <set>
#include <string>

#include "common/clock.h"

namespace propscaler::nodescale {

// Why a group is backed off, as Cluster Autoscaler's status names it
// (errorCode "timeout" for nodes that did not come in time,
// "cloudProviderError" for a refused resize).
struct BackoffReason {
  std::string code;
  std::string message;
};

class GroupBackoff {
 public:
  GroupBackoff(Duration initial, Duration max) : initial_(initial), max_(max) {}

  // Backs the group off from `now` for `reason`; returns when the backoff
  // ends.
  TimePoint Fail(const std::string& group, TimePoint now,
                 BackoffReason reason = {});
  void Succeed(const std::string& group);

  bool BackedOff(const std::string& group, TimePoint now) const;
  std::set<std::string, std::less<>> BackedOffGroups(TimePoint now) const;
  // When the group's backoff ends; the epoch when it has none.
  TimePoint Until(const std::string& group) const;
  // The reason of its last failure; null when it has no backoff.
  const BackoffReason* ReasonOf(const std::string& group) const;

 private:
  struct Entry {
    int failures = 0;
    TimePoint until;
    BackoffReason reason;
  };
  const Duration initial_;
  const Duration max_;
  std::map<std::string, Entry> entries_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_UP_GROUP_BACKOFF_H_
