// Vertical mode's control loop: cluster-proportional-vertical-autoscaler's
// job. Watches the nodes (all of them and their capacity cores, as CPVA
// counts; or, opted in, the Ready and schedulable ones and their
// allocatable cores, as replica mode counts), reads the config (CPVA's
// --default-config with its --config-file laid over it, re-read when the
// file changes; or a watched ConfigMap), and on every change (within a
// second) and every poll period computes each configured container's
// resources and patches those that moved beyond the threshold into the
// target's pod template (vertical/resize_plan.h). Each patch is one Event
// on the target and one log line with from, to and the counts.
//
// The target is watched too (list+watch by name), so a cycle reads nothing
// and another writer's change to the resources is set back within a second.
//
// It runs on the loop runtime (runtime/), as replica mode does, and under
// CPVA's RBAC: where watching nodes is forbidden it lists them every cycle;
// where watching the target is forbidden it GETs it every cycle; where
// reading it is forbidden too (CPVA grants only patch) it patches, as CPVA
// does, whenever the computed values change, and asks again only every
// few minutes (runtime/refusal.h).
// All I/O goes through a kube::Client and all time through a Clock.
#ifndef PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_H_
#define PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "cluster/node_store.h"
#include "common/files.h"
#include "common/health_state.h"
#include "common/status.h"
#include "common/status_board.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/controllers/event_recorder.h"
#include "kube/model/objects.h"
#include "kube/model/pod_template.h"
#include "runtime/cycle_driver.h"
#include "runtime/loop.h"
#include "runtime/watched_collection.h"
#include "runtime/watched_config_map.h"
#include "runtime/watched_object.h"
#include "vertical/resize_plan.h"
#include "vertical/vertical_config.h"
#include "vertical/vertical_status.h"

namespace propscaler {

struct VerticalOptions {
  std::string namespace_;
  kube::WorkloadRef target;
  std::optional<VerticalConfig> default_config;  // --default-config
  std::string config_file;                       // --config-file
  std::string configmap;      // --configmap: watched, instead of a file
  std::string node_selector;  // --nodelabels, passed to the server as is
  bool schedulable_nodes_only = false;
  ResizePolicy policy;
  std::chrono::seconds poll_period{10};
  int max_sync_failures = 0;  // 0: never exit
  bool dry_run = false;
  // Leader election: while false, no cycle runs and nothing is written
  // (empty: always acts).
  std::function<bool()> may_act;
};

using VerticalStatusBoard = StatusBoard<VerticalStatus>;

class VerticalAutoscaler : public runtime::Loop {
 public:
  // `events` may be null: no Events are posted (dry runs post none).
  VerticalAutoscaler(const kube::Client* client, const Clock* clock,
                     VerticalOptions options, HealthState* health,
                     kube::EventRecorder* events, VerticalStatusBoard* board);

  int Run(StopSignal* stop) override;
  Status RunOnce() override;

 private:
  runtime::CycleHooks Hooks();
  Status Ready() const;
  Status RunCycle(TimePoint now);
  void CycleFinished(TimePoint start, const Status& status);
  // The config in force: the defaults with the file's or the ConfigMap's
  // laid over them; the last valid one while a new one is invalid.
  Result<VerticalConfig> CurrentConfig();
  Result<std::optional<VerticalConfig>> ReadConfigFile();
  Result<std::optional<VerticalConfig>> ConfigFromConfigMap();
  void AcceptConfig(const VerticalConfig& config);
  void RejectConfig(const Status& status);
  VerticalCounts Counts() const;
  void SetMetrics(const VerticalCounts& counts,
                  const std::map<std::string, ComputedResources>& computed);
  // Reads the target and patches what moved; CPVA's blind patch where
  // reading it is forbidden.
  Status Resize(const std::map<std::string, ComputedResources>& computed,
                const VerticalCounts& counts, TimePoint now);
  Status ResizeBlind(const std::map<std::string, ComputedResources>& computed,
                     const VerticalCounts& counts);
  Status Apply(const std::vector<ResourceChange>& changes,
               const std::string& resource_version,
               const VerticalCounts& counts);
  void Report(const std::vector<ResourceChange>& changes,
              const VerticalCounts& counts);
  void WatchConfigFile(StopSignal* stop);
  std::string TargetRef() const;
  std::string ConfigMapRef() const;

  const kube::Client* client_;
  const Clock* clock_;
  const VerticalOptions options_;
  kube::EventRecorder* events_;
  VerticalStatusBoard* board_;
  runtime::CycleDriver driver_;
  NodeStore nodes_;
  runtime::WatchedCollection<kube::NodeInfo> node_watch_;
  runtime::WatchedObject<kube::PodTemplateWorkload> target_;
  std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>>
      config_map_;  // with --configmap

  // Touched only by the loop's thread (and, for the file stamp, by the
  // file watcher before the loop starts).
  std::string cycle_cause_ = "first cycle";
  std::optional<FileStamp> file_stamp_;
  std::optional<VerticalConfig> file_config_;
  std::string config_map_version_;
  std::optional<VerticalConfig> config_map_config_;
  std::optional<VerticalConfig> last_valid_;
  std::string last_config_error_;
  bool warned_missing_file_ = false;
  std::optional<std::map<std::string, ComputedResources>> blind_patched_;
  DecreaseHistory decreases_;
  std::vector<std::string> logged_held_;
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_H_
