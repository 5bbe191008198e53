// Cluster Autoscaler's view of node health: each registered node is Ready,
// NotStarted (not ready, created less than --max-node-startup-time ago:
// capacity still coming) or Unready (not ready for longer: no capacity, and
// not coming either); and the cluster health gate, which stops every action
// while more than --ok-total-unready-count and more than
// --max-total-unready-percentage of the registered nodes are Unready.
//
// CA's "ready": the Ready condition True, no not-ready, disk-pressure or
// network-unavailable taint (the node lifecycle controller's copies of the
// DiskPressure and NetworkUnavailable conditions), and no startup taint (a
// node carrying one is still starting). Cordoned nodes are counted by the
// callers as they count them. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_HEALTH_NODE_HEALTH_H_
#define PROPSCALER_NODESCALE_PLAN_HEALTH_NODE_HEALTH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "nodescale/plan/simulation/snapshot.h"
#include "nodescale/plan/simulation/taint_kinds.h"

namespace propscaler::nodescale {

struct NodeHealthConfig {
  Duration max_node_startup_time = std::chrono::minutes(15);
  // --max-total-unready-percentage and --ok-total-unready-count.
  double max_total_unready_percentage = 45;
  int64_t ok_total_unready_count = 3;
  // Startup taints make a node not Ready (taint_kinds.h).
  TaintKinds taints;
};

enum class Readiness { kReady, kNotStarted, kUnready };

std::string_view ReadinessName(Readiness readiness);

// A node that is not ready is NotStarted for its group's
// --max-node-startup-time (`max_startup_time`; unset: config's) after its
// creation, then Unready, as Cluster Autoscaler's updateReadinessStats: a
// scale-up in flight does not keep it coming longer. One tie is broken as a
// cloud breaks it: a node whose startup time ends no earlier than
// `wait_deadline` (the deadline of the group's scale-up still in flight,
// ProvisionTracker::Deadline) stays NotStarted until that deadline decides
// (a cloud's node registers well after the request, so with the two times
// equal the request times out first; a simulated node comes at once, and
// its creationTimestamp has whole seconds, so it is taken as made at the end
// of its second). `drivers_registered` false (see LacksTemplateCsiDriver)
// makes a Ready node not ready.
Readiness ReadinessOf(const NodeState& node, TimePoint now,
                      const NodeHealthConfig& config,
                      bool drivers_registered = true,
                      std::optional<Duration> max_startup_time = {},
                      std::optional<TimePoint> wait_deadline = {});

// With --enable-csi-node-aware-scheduling: whether a node's CSINode (its
// drivers' attach limits; null: no CSINode) lacks a driver its group's
// template has: its CSI node plugin has not registered yet, so it cannot
// attach the volumes it is planned for. Cluster Autoscaler counts such a
// node as not ready (still coming while it is young).
bool LacksTemplateCsiDriver(const VolumeLimits* node_limits,
                            const VolumeLimits& template_limits);

struct ReadinessCounts {
  int64_t ready = 0;
  int64_t not_started = 0;
  int64_t unready = 0;
  int64_t registered() const { return ready + not_started + unready; }
};

ReadinessCounts CountReadiness(const std::vector<Readiness>& readiness);

struct ClusterHealth {
  bool healthy = true;
  // Why not, for the log, the Event and the status ("3 of 5 nodes
  // Unready: more than 3 and more than 45%").
  std::string reason;
};

ClusterHealth AssessClusterHealth(const ReadinessCounts& counts,
                                  const NodeHealthConfig& config);

// Cluster Autoscaler's IsNodeGroupHealthy: the group's nodes not Ready
// beyond the `upcoming` it still waits for ((target - upcoming) - ready)
// above --ok-total-unready-count and above --max-total-unready-percentage
// of its registered nodes make it no scale-up option. Why, or nullopt.
std::optional<std::string> GroupUnhealthy(const ReadinessCounts& counts,
                                          int64_t target, int64_t upcoming,
                                          const NodeHealthConfig& config);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_HEALTH_NODE_HEALTH_H_
