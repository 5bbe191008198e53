// Upcoming capacity: nodes a group was asked for that are not Ready yet.
//
// Each loop the tracker is told every group's target size and how many of
// its nodes have arrived (Ready, or Unready: not coming any more, see
// plan/health/node_health.h). While target > arrived the difference is
// upcoming: the planner counts it as capacity so the same pods never trigger a
// second scale-up. When a group stays short of its target for longer than
// --max-node-provision-time without a new node arriving, its scale-up has
// failed: the loop backs the group off and gives the capacity up. Progress
// (one more node arrived) restarts the deadline; a wait that follows a
// scale-up counts from the scale-up, as Cluster Autoscaler's request does.
// Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_HEALTH_PROVISION_TRACKER_H_
#define PROPSCALER_NODESCALE_PLAN_HEALTH_PROVISION_TRACKER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"

namespace propscaler::nodescale {

struct GroupProgress {
  std::string group;
  int64_t target = 0;
  int64_t ready = 0;  // arrived: Ready or Unready
  // The group's own --max-node-provision-time; unset: the tracker's.
  std::optional<Duration> max_provision_time;
};

class ProvisionTracker {
 public:
  explicit ProvisionTracker(Duration max_provision_time)
      : max_provision_time_(max_provision_time) {}

  // Updates the groups' state; returns the groups whose nodes did not become
  // Ready in time (their tracking restarts from `now`).
  std::vector<std::string> Update(const std::vector<GroupProgress>& groups,
                                  TimePoint now);

  // Upcoming nodes of the group, as of the last Update.
  int64_t Upcoming(const std::string& group) const;
  // Since when the group has been waiting for nodes; the epoch when it is
  // not waiting.
  TimePoint WaitingSince(const std::string& group) const;
  // When the group's wait times out (its start, restarted by progress, plus
  // its provision time); nullopt when it is not waiting.
  std::optional<TimePoint> Deadline(const std::string& group) const;
  // The group was asked for more nodes at `now`: a wait that starts at the
  // next Update counts from here.
  void ScaledUp(const std::string& group, TimePoint now);

 private:
  struct Entry {
    int64_t upcoming = 0;
    int64_t ready = 0;
    TimePoint since;  // the deadline's start, restarted by progress
    Duration provision_time;
  };
  const Duration max_provision_time_;
  std::map<std::string, Entry> entries_;
  std::map<std::string, TimePoint> scaled_up_;  // since the last Update
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_HEALTH_PROVISION_TRACKER_H_
