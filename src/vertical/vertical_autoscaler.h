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
// The watches (vertical/vertical_watches.h) are built, started and joined
// by app/; what it tells people goes through its reporter
// (vertical/vertical_reporter.h).
//
// It runs on the loop runtime (runtime/), as replica mode does, and under
// CPVA's RBAC: where watching nodes is forbidden it lists them every cycle;
// where watching the target is forbidden it GETs it every cycle; where
// reading it is forbidden too (CPVA grants only patch) it patches, as CPVA
// does, whenever the computed values change, and asks again only every
// few minutes (runtime/refusal.h).
// With --resize=in-place on a server that serves pods/resize, the running
// pods are resized instead, one at a time (vertical/in_place_plan.h), and
// the template is patched only where that does not replace the pods
// (replicasets; daemonsets and statefulsets updated OnDelete): new pods of
// a deployment start at the template's size and are resized as they
// appear. A resize the kubelet refuses or puts off falls back to replacing
// pods, with a Warning Event.
//
// All I/O goes through a kube::Client and all time through a Clock.
#ifndef PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_H_
#define PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "common/files.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "kube/model/pod_template.h"
#include "runtime/cycle_driver.h"
#include "vertical/in_place_plan.h"
#include "vertical/resize_plan.h"
#include "vertical/vertical_autoscaler_options.h"
#include "vertical/vertical_config.h"
#include "vertical/vertical_reporter.h"
#include "vertical/vertical_watches.h"

namespace propscaler {

class VerticalAutoscaler {
 public:
  // The API roles it writes through (kube/client/client.h).
  struct Clients {
    const kube::WorkloadClient* workloads;    // the target's pod template
    const kube::PodResizeClient* resizes;     // --resize=in-place
    const kube::NodeActionClient* evictions;  // a refused in-place resize
    static Clients Of(const kube::Client* client) {
      return {client, client, client};
    }
  };

  // Every pointer outlives the autoscaler; `driver` is the one the watches
  // notify.
  VerticalAutoscaler(Clients api, const Clock* clock, VerticalOptions options,
                     VerticalWatches* watches, runtime::CycleDriver* driver,
                     VerticalReporter* reporter);

  // Cycles on the driver until `stop` (the watches run meanwhile); returns
  // the exit code: 0, or 1 after --max-sync-failures failed cycles.
  int Run(StopSignal* stop);
  // One cycle, for --once (the nodes listed first; the target and ConfigMap
  // read with GETs).
  Status RunOnce();

 private:
  runtime::CycleHooks Hooks();
  Status Ready() const;
  Status RunCycle(TimePoint now);
  // The config in force: the defaults with the file's or the ConfigMap's
  // laid over them; the last valid one while a new one is invalid.
  Result<VerticalConfig> CurrentConfig();
  Result<std::optional<VerticalConfig>> ReadConfigFile();
  Result<std::optional<VerticalConfig>> ConfigFromConfigMap();
  void AcceptConfig(const VerticalConfig& config);
  void RejectConfig(const Status& status);
  VerticalCounts Counts() const;
  // Reads the target and patches what moved; CPVA's blind patch where
  // reading it is forbidden.
  Status Resize(const std::map<std::string, ComputedResources>& computed,
                const VerticalCounts& counts, TimePoint now);
  Status ResizeBlind(const std::map<std::string, ComputedResources>& computed,
                     const VerticalCounts& counts);
  Status Apply(const std::vector<ResourceChange>& changes,
               const std::string& resource_version,
               const VerticalCounts& counts);
  // --resize=in-place: the next step over the target's pods
  // (vertical/in_place_plan.h).
  Status ResizeInPlace(const kube::PodTemplateWorkload& workload,
                       const std::map<std::string, ComputedResources>& computed,
                       const VerticalCounts& counts, TimePoint now);
  Status ResizePod(const InPlacePlan& plan, const VerticalCounts& counts);
  // A pod's resize was refused or put off: its pods are replaced instead,
  // by patching the template where that rolls them, else by evicting it.
  Status FallBack(const kube::PodTemplateWorkload& workload,
                  const InPlacePlan& plan,
                  const std::map<std::string, ComputedResources>& computed,
                  const VerticalCounts& counts, TimePoint now);
  bool TemplateChangeRolls(const kube::PodTemplateWorkload& workload) const;
  // Keeps fallen_back_ and refused_by_uid_ to the pods that still exist.
  void ForgetFallBacksOfGonePods(const std::vector<kube::ResizedPod>& pods);
  std::string ConfigMapRef() const;

  const Clients api_;
  const Clock* clock_;
  const VerticalOptions options_;
  VerticalWatches* const watches_;
  runtime::CycleDriver* const driver_;
  VerticalReporter* const reporter_;

  // Touched only by the loop's thread.
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
  // Pods (name and state) whose refused resize was already reported.
  std::set<std::pair<std::string, kube::ResizeState>> fallen_back_;
  // Pods whose pods/resize the API server refused (422), by uid: the
  // refusal's message.
  std::map<std::string, std::string> refused_by_uid_;
  bool said_unavailable_ = false;
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_AUTOSCALER_H_
