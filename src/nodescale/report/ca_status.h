// Cluster Autoscaler's status, as CA writes it under key `status` of its
// status ConfigMap (its clusterstate/api types, CA 1.36 and later), so that
// a CA user's `kubectl get cm -o yaml`, runbooks and tools read
// propscaler's state: cluster-wide and per node group, health with node
// counts, scale-up (InProgress, Backoff with its error, Unhealthy,
// NoActivity) and scale-down candidates. Each condition keeps its
// lastTransitionTime while its status stays the same as in the previous
// write (held in memory, as CA: a restart starts them over). The YAML is
// CA's: keys sorted, probe and transition times as whole-second RFC 3339 in
// UTC or null, `time` in Go's time.String() layout. Pure.
#ifndef PROPSCALER_NODESCALE_REPORT_CA_STATUS_H_
#define PROPSCALER_NODESCALE_REPORT_CA_STATUS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/health/node_health.h"
#include "nodescale/plan/scale_up/group_backoff.h"

namespace propscaler::nodescale {

// Each registered node in one bucket, in CA's order: being deleted, ready,
// not started, unready; and the instances asked for that have no node.
struct CaNodeCounts {
  int64_t being_deleted = 0;
  int64_t suspended = 0;  // no provider here suspends nodes
  int64_t ready = 0;
  int64_t not_started = 0;
  int64_t unready = 0;
  int64_t resource_unready = 0;  // of unready
  int64_t unregistered = 0;
  int64_t long_unregistered = 0;  // past --max-node-provision-time

  int64_t Registered() const {
    return being_deleted + suspended + ready + not_started + unready;
  }
};

// What one node group's status is built from.
struct CaGroupInput {
  std::string name;
  int64_t min_size = 0;
  int64_t max_size = 0;
  int64_t target = 0;
  CaNodeCounts counts;
  // Nodes asked for and not arrived, while their scale-up is in flight.
  int64_t upcoming = 0;
  std::optional<BackoffReason> backoff;  // while backed off
  int64_t candidates = 0;                // unneeded nodes
};

struct CaStatusInput {
  TimePoint now;
  CaNodeCounts cluster;         // every node, in a group or not
  bool cluster_healthy = true;  // the loop's health gate
  std::vector<CaGroupInput> groups;
  // The last scale-down pass; nullopt while none has run.
  std::optional<TimePoint> scale_down_probe;
  NodeHealthConfig health;  // the unready tolerances
};

struct CaCondition {
  std::string status;
  std::optional<TimePoint> last_probe;  // nullopt: null
  std::optional<TimePoint> last_transition;
};

struct CaGroupStatus {
  std::string name;
  CaCondition health;
  CaNodeCounts counts;
  int64_t target = 0;
  int64_t min_size = 0;
  int64_t max_size = 0;
  CaCondition scale_up;
  std::optional<BackoffReason> backoff;  // errorCode, errorMessage
  CaCondition scale_down;
  int64_t candidates = 0;
};

struct CaStatus {
  TimePoint time;
  std::string autoscaler_status = "Initializing";  // or "Running"
  CaCondition health;
  CaNodeCounts counts;
  CaCondition scale_up;
  CaCondition scale_down;
  int64_t candidates = 0;
  std::vector<CaGroupStatus> groups;
};

// The status of this iteration; `previous` is the last one written (an
// Initializing one before the first).
CaStatus BuildCaStatus(const CaStatusInput& input, const CaStatus& previous);

std::string RenderCaStatusYaml(const CaStatus& status);

// Go's time.String() in UTC: "2023-11-24 04:28:19.546750398 +0000 UTC",
// trailing zeros of the fraction dropped (none for a whole second). The
// status's `time` and its ConfigMap's last-updated annotation.
std::string GoTimeString(TimePoint time);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_REPORT_CA_STATUS_H_
