// Replica mode's control loop: watches the counted nodes and the params
// ConfigMap, and on every change (within a second, bursts coalesced) and every
// poll period computes the replica count and sets it on each target through
// its scale subresource. With a scaleDown policy in the params, each target's
// scale-downs are smoothed (replicas/scale_down_smoothing.h) against the
// clock; --once has no history, so only the step limit applies. All I/O goes
// through a kube::Client and all time through a Clock (virtual in tests).
//
// What it reads comes from its watches (replicas/replica_watches.h), which
// app/ builds, starts and joins beside it: a cycle reads no scale, and
// another writer's change is undone at once (replicas/target_scales.h).
// What it tells people goes through its reporter
// (replicas/replica_reporter.h).
//
// It runs on the loop runtime (runtime/): one cycle driver, watched objects
// whose copies never go backwards, one way to handle what RBAC refuses.
// Under the RBAC of cluster-proportional-autoscaler, where listing and
// watching the ConfigMap or a target is forbidden, it GETs it every cycle;
// where reading a target's scale is forbidden too it writes it blindly when
// the desired count changes; it writes replicas with `update` (or `patch`,
// see kube/controllers/scale_writer.h); where it may not update the ConfigMap
// to new
// --default-params it keeps the one there.
#ifndef PROPSCALER_REPLICAS_AUTOSCALER_H_
#define PROPSCALER_REPLICAS_AUTOSCALER_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/controllers/scale_writer.h"
#include "kube/model/objects.h"
#include "kube/model/scale_target.h"
#include "replicas/autoscaler_options.h"
#include "replicas/default_params.h"
#include "replicas/hpa_floor_writer.h"
#include "replicas/hpa_floors.h"
#include "replicas/params.h"
#include "replicas/replica_reporter.h"
#include "replicas/replica_watches.h"
#include "replicas/scale_down_smoothing.h"
#include "runtime/cycle_driver.h"
#include "runtime/refusal.h"

namespace propscaler {

class ReplicaAutoscaler {
 public:
  // The API roles it writes through (kube/client/client.h).
  struct Clients {
    const kube::ConfigMapClient* config_maps;  // --default-params
    const kube::ScaleClient* scales;           // the targets' replicas
    const kube::HpaClient* hpas;               // --hpa-floor
    static Clients Of(const kube::Client* client) {
      return {client, client, client};
    }
  };

  // Every pointer outlives the autoscaler; `driver` is the one the watches
  // notify.
  ReplicaAutoscaler(Clients api, const Clock* clock, AutoscalerOptions options,
                    ReplicaWatches* watches, runtime::CycleDriver* driver,
                    ReplicaReporter* reporter);

  // Cycles on the driver until `stop` (the watches run meanwhile); returns
  // the exit code: 0, or 1 after --max-sync-failures failed cycles.
  int Run(StopSignal* stop);
  // One cycle, for --once (the nodes listed first).
  Status RunOnce();

 private:
  runtime::CycleHooks Hooks();
  Status Ready() const;
  Status RunCycle(TimePoint now);
  // The ConfigMap as watched (or read, where the watch is refused); the
  // last one known when a read fails, with the failure in `*error`.
  std::optional<kube::ConfigMap> ReadConfigMap(Status* error);
  // Creates or updates the ConfigMap from --default-params as needed and
  // returns the params to apply (the last valid ones if it is invalid).
  Result<Params> CurrentParams(std::optional<kube::ConfigMap> current);
  Status ApplyDefaultParams(std::optional<kube::ConfigMap>* current);
  Status ScaleOne(const kube::ScaleTarget& target, int64_t computed,
                  const ClusterCounts& counts,
                  const std::optional<ScaleDownPolicy>& scale_down,
                  TimePoint now);
  // Where RBAC refuses reading the scale: writes `desired` unconditionally,
  // as cluster-proportional-vertical-autoscaler writes, whenever it changes.
  Status ScaleBlind(const kube::ScaleTarget& target, const Status& refused,
                    int64_t desired, const ClusterCounts& counts);
  // Applies the scaleDown policy to `computed` for `target`, keeping its
  // history, and logs once per change when it holds a scale-down back.
  int64_t SmoothedDesired(const kube::ScaleTarget& target,
                          const ScaleDownPolicy& policy, TimePoint now,
                          int64_t current, int64_t computed);
  // Notes the targets of this cycle: logs those --target-selector added or
  // dropped, and forgets what is kept for the ones gone.
  void TrackTargets(const std::vector<kube::ScaleTarget>& targets);
  // Which HPA takes which target's count as its minReplicas (--hpa-floor,
  // --hpa-floor-auto); an error when that cannot be known.
  Result<FloorPlan> PlanFloors(const std::vector<kube::ScaleTarget>& targets);
  // Sets `hpa`'s minReplicas to `computed` (smoothed) instead of the
  // target's replicas.
  Status SetFloor(const kube::ScaleTarget& target, const kube::HpaRef& hpa,
                  int64_t computed, const ClusterCounts& counts,
                  const std::optional<ScaleDownPolicy>& scale_down,
                  TimePoint now);
  Status TimedCycle(TimePoint start);
  Status WriteScale(const kube::ScaleTarget& target, const kube::Scale& read,
                    int64_t desired, const ClusterCounts& counts);
  std::string ConfigMapRef() const;

  const Clients api_;
  const Clock* clock_;
  const AutoscalerOptions options_;
  ReplicaWatches* const watches_;
  runtime::CycleDriver* const driver_;
  ReplicaReporter* const reporter_;
  kube::ScaleWriter scale_writer_;
  // With --hpa-floor or --hpa-floor-auto.
  std::optional<HpaFloorWriter> floor_writer_;
  // RBAC's refusal of the ConfigMap's update (--default-params changed):
  // asked again only every few minutes, meanwhile applied as it is.
  runtime::Refusal update_refusal_;

  // Touched only by the loop's thread.
  std::string cycle_cause_ = "first cycle";
  std::optional<Params> last_valid_params_;
  std::string last_params_error_;
  bool warned_edited_ = false;
  struct TargetSmoothing {
    ScaleDownHistory history;
    std::string logged;  // the last hold logged, so each is logged once
  };
  std::map<std::string, TargetSmoothing> smoothing_;  // by "kind/name"
  std::map<std::string, int64_t> blind_written_;      // by "kind/name"
  std::set<std::string> known_targets_;  // "kind/name", as last cycle
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_AUTOSCALER_H_
