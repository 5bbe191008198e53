// Replica mode's control loop: watches the counted nodes and the params
// ConfigMap, and on every change (within a second, bursts coalesced) and every
// poll period computes the replica count and sets it on each target through
// its scale subresource. With a scaleDown policy in the params, each target's
// scale-downs are smoothed (replicas/scale_down_smoothing.h) against the
// clock; --once has no history, so only the step limit applies. All I/O goes
// through a kube::Client and all time through a Clock (virtual in tests).
//
// It watches each target's workload, so a cycle reads no scale and another
// writer's change is undone at once (replicas/target_scales.h).
//
// It runs under the RBAC of cluster-proportional-autoscaler: where listing
// and watching the ConfigMap or a target is forbidden it GETs it every
// cycle; it writes
// replicas with `update` (or `patch`, see kube/scale_writer.h); where it may
// not update the ConfigMap to new --default-params it keeps the one there.
#ifndef PROPSCALER_REPLICAS_AUTOSCALER_H_
#define PROPSCALER_REPLICAS_AUTOSCALER_H_

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cluster/node_store.h"
#include "common/health_state.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "common/taint_filter.h"
#include "kube/api.h"
#include "kube/event_recorder.h"
#include "kube/objects.h"
#include "kube/reflector.h"
#include "kube/scale_target.h"
#include "kube/scale_writer.h"
#include "replicas/cycle_reporter.h"
#include "replicas/default_params.h"
#include "replicas/hpa_conflict_check.h"
#include "replicas/params.h"
#include "replicas/replica_status.h"
#include "replicas/scale_down_smoothing.h"
#include "replicas/target_scales.h"

namespace propscaler {

struct AutoscalerOptions {
  std::string namespace_;
  std::string configmap;
  std::vector<kube::ScaleTarget> targets;
  std::optional<ConfigMapData> default_params;
  std::string node_selector;    // --nodelabels, passed to the server as is
  TaintFilter excluded_taints;  // --exclude-node-taints
  std::chrono::seconds poll_period{10};
  int max_sync_failures = 0;  // 0: never exit
  bool dry_run = false;
};

class ReplicaAutoscaler {
 public:
  // `events` may be null: no Events are posted (dry runs do not post any).
  ReplicaAutoscaler(const kube::Client* client, const Clock* clock,
                    AutoscalerOptions options, HealthState* health,
                    kube::EventRecorder* events, ReplicaStatusBoard* board);

  // Runs until `stop` (which waits on the same clock); returns the exit
  // code: 0, or 1 after
  // --max-sync-failures consecutive failed cycles.
  int Run(StopSignal* stop);

  // Lists nodes and reads the ConfigMap once, then runs one cycle.
  Status RunOnce();

 private:
  Status RunCycle(TimePoint now);
  Status RunCycleWithCurrentParams(TimePoint now);
  // Creates or updates the ConfigMap from --default-params as needed and
  // returns the params to apply (the last valid ones if it is invalid).
  Result<Params> CurrentParams();
  Status ApplyDefaultParams(std::optional<kube::ConfigMap>* current);
  Status ScaleOne(const kube::ScaleTarget& target, int64_t computed,
                  const ClusterCounts& counts,
                  const std::optional<ScaleDownPolicy>& scale_down,
                  TimePoint now);
  // Applies the scaleDown policy to `computed` for `target`, keeping its
  // history, and logs once per change when it holds a scale-down back.
  int64_t SmoothedDesired(const kube::ScaleTarget& target,
                          const ScaleDownPolicy& policy, TimePoint now,
                          int64_t current, int64_t computed);
  kube::Reflector<kube::NodeInfo> NodeReflector(
      kube::ReflectorSink<kube::NodeInfo> sink) const;
  void WaitForNextCycle(StopSignal* stop);
  void NotifyChange(const std::string& cause);
  Status TimedCycle();
  void SetConfigMap(std::optional<kube::ConfigMap> config_map);
  // Stores the ConfigMap; true when it differs from the one held.
  bool StoreConfigMap(std::optional<kube::ConfigMap> config_map);
  // Reads the ConfigMap with a GET: each cycle's source when RBAC forbids
  // listing and watching it (CPA's RBAC grants only get).
  Status PollConfigMap();
  // Called when the ConfigMap reflector stopped at a 403.
  void FallBackToPollingConfigMap(const Status& refused);
  Status WriteScale(const kube::ScaleTarget& target, const kube::Scale& read,
                    int64_t desired, const ClusterCounts& counts);
  std::string ConfigMapRef() const;

  const kube::Client* client_;
  const Clock* clock_;
  const AutoscalerOptions options_;
  HealthState* health_;
  CycleReporter reporter_;
  HpaConflictCheck hpa_check_;
  kube::ScaleWriter scale_writer_;
  TargetScales target_scales_;
  std::atomic<bool> config_map_polled_{false};
  bool config_map_poll_logged_ = false;  // touched by the ConfigMap thread
  NodeStore nodes_;

  std::atomic<bool> changed_{false};  // since the last cycle
  std::mutex mutex_;                  // guards the fields below
  std::string pending_cause_;         // what changed since the last cycle
  bool nodes_synced_ = false;
  bool config_map_synced_ = false;
  std::optional<kube::ConfigMap> config_map_;

  // Touched only by the loop's thread.
  std::string cycle_cause_ = "first cycle";
  TimePoint last_cycle_start_{};
  std::optional<Params> last_valid_params_;
  std::string last_params_error_;
  bool warned_edited_ = false;
  bool warned_update_forbidden_ = false;
  struct TargetSmoothing {
    ScaleDownHistory history;
    std::string logged;  // the last hold logged, so each is logged once
  };
  std::map<std::string, TargetSmoothing> smoothing_;  // by "kind/name"
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_AUTOSCALER_H_
