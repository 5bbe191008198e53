// What replica mode shows on /status: the counts, the params in force and the
// last rejected ones, each target's desired and current replicas, and the
// last scaling decisions. Written by the loop, read by the HTTP server.
#ifndef PROPSCALER_REPLICAS_REPLICA_STATUS_H_
#define PROPSCALER_REPLICAS_REPLICA_STATUS_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <string>

#include "common/history.h"
#include "common/status_board.h"
#include "replicas/arithmetic.h"

namespace propscaler {

struct TargetStatus {
  int64_t desired = -1;  // -1: not computed yet
  int64_t current = -1;  // spec.replicas as last read; -1: unknown
  std::string error;     // of the last cycle, if it failed for this target
  // How the count is set when not through the target's scale, e.g.
  // "minReplicas of horizontalpodautoscaler dns" (--hpa-floor).
  std::string via;
};

struct ScaleDecision {
  std::chrono::system_clock::time_point time;
  std::string target;
  int64_t from = 0;
  int64_t to = 0;
  std::string cause;  // what started the cycle, e.g. "nodes changed"
  ClusterCounts counts;
};

// The series of a target's replicas: this, then "kind/name".
inline constexpr char kReplicasSeries[] = "replicas ";

struct ReplicaStatus {
  std::string namespace_;
  std::string configmap;
  ClusterCounts counts;
  std::map<std::string, std::string> params_in_force;  // ConfigMap data
  std::map<std::string, std::string> rejected_params;
  std::string rejected_reason;
  std::map<std::string, TargetStatus> targets;  // by "kind/name"
  std::deque<ScaleDecision> decisions;          // newest first
  // For the pictures: "nodes", "schedulable nodes", "cores", "schedulable
  // cores" and "replicas <kind/name>" over time; a mark at each scaling.
  History history;
  std::chrono::system_clock::time_point last_cycle{};
  std::string last_cycle_error;

  static constexpr size_t kMaxDecisions = 20;
};

using ReplicaStatusBoard = StatusBoard<ReplicaStatus>;

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_REPLICA_STATUS_H_
