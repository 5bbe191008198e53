// Reports what replica mode's cycles do, to the three places people look:
// Prometheus metrics, Kubernetes Events (ScaledReplicas on the target,
// InvalidParams on the ConfigMap, ConflictingAutoscaler on a target an HPA
// also scales; de-duplicated by the recorder), and the
// /status board (runtime/mode_reporter.h). Keeps the loop free of reporting
// detail.
#ifndef PROPSCALER_REPLICAS_REPLICA_REPORTER_H_
#define PROPSCALER_REPLICAS_REPLICA_REPORTER_H_

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "common/clock.h"
#include "common/status.h"
#include "kube/controllers/event_recorder.h"
#include "kube/model/scale_target.h"
#include "replicas/autoscaler_options.h"
#include "replicas/hpa_conflicts.h"
#include "replicas/replica_status.h"
#include "runtime/mode_reporter.h"

namespace propscaler {

class ReplicaReporter : public runtime::ModeReporter<ReplicaStatus> {
 public:
  // `events` may be null (dry runs, tests without Events).
  ReplicaReporter(const Clock* clock, kube::EventRecorder* events,
                  ReplicaStatusBoard* board, const AutoscalerOptions& options);

  void ParamsAccepted(const std::map<std::string, std::string>& data,
                      bool changed);
  void ParamsRejected(const std::map<std::string, std::string>& data,
                      const std::string& reason);
  void Counts(const ClusterCounts& counts);
  // `via`: how the count is set when not through the target's scale.
  void TargetRead(const kube::ScaleTarget& target, int64_t current,
                  int64_t desired, const std::string& via = "");
  void TargetFailed(const kube::ScaleTarget& target, const std::string& error);
  // The targets now ("kind/name"): those gone (--target-selector's) leave
  // /status and the metrics.
  void TargetsAre(const std::set<std::string>& targets);
  void Scaled(const kube::ScaleTarget& target, int64_t from, int64_t to,
              const ClusterCounts& counts, const std::string& cause);
  // --hpa-floor: `hpa`'s minReplicas, the floor of `target`, went from
  // `from` to `to`.
  void FloorSet(const kube::ScaleTarget& target, const std::string& hpa,
                const std::string& hpa_version, int64_t from, int64_t to,
                const ClusterCounts& counts, const std::string& cause);
  void HpaConflictFound(const HpaConflict& conflict);
  void CycleFinished(const Status& status, Duration took);

 private:
  // A write of `target`'s count (`what` names it on /status): metrics and
  // the decisions on /status.
  void Decided(const kube::ScaleTarget& target, const std::string& what,
               int64_t from, int64_t to, const ClusterCounts& counts,
               const std::string& cause);

  const Clock* clock_;
  const std::string namespace_;
  const std::string configmap_;
  int64_t params_generation_ = 0;
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_REPLICA_REPORTER_H_
