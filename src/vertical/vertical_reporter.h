// Reports what vertical mode's cycles do (runtime/mode_reporter.h):
// Prometheus metrics (the counts, each computed resource, resizes, rejected
// configs), Kubernetes Events (ResizedContainers on the target,
// InvalidConfig on a --configmap) and the /status board. Keeps the loop
// free of reporting detail.
#ifndef PROPSCALER_VERTICAL_VERTICAL_REPORTER_H_
#define PROPSCALER_VERTICAL_VERTICAL_REPORTER_H_

#include <map>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "kube/controllers/event_recorder.h"
#include "kube/model/pod_template.h"
#include "kube/model/resized_pod.h"
#include "runtime/mode_reporter.h"
#include "vertical/resize_plan.h"
#include "vertical/vertical_arithmetic.h"
#include "vertical/vertical_autoscaler_options.h"
#include "vertical/vertical_config.h"
#include "vertical/vertical_status.h"

namespace propscaler {

// "nodes 3, cores 12".
std::string DescribeVerticalCounts(const VerticalCounts& counts);
// The changes, comma-separated.
std::string DescribeChanges(const std::vector<ResourceChange>& changes);

class VerticalReporter : public runtime::ModeReporter<VerticalStatus> {
 public:
  // `events` may be null (dry runs post none).
  VerticalReporter(const Clock* clock, kube::EventRecorder* events,
                   VerticalStatusBoard* board, const VerticalOptions& options);

  void ConfigAccepted(const VerticalConfig& config);
  // `first`: the first cycle to find this error (an Event only then).
  void ConfigRejected(const std::string& error, bool first);
  void Computed(const VerticalCounts& counts,
                const std::map<std::string, ComputedResources>& computed);
  void TargetRead(const std::vector<kube::ContainerResources>& containers);
  void Held(const std::vector<std::string>& held);
  void Resized(const std::vector<ResourceChange>& changes,
               const VerticalCounts& counts, const std::string& cause,
               const std::vector<kube::ContainerResources>& now_current);
  // In-place resize (--resize=in-place): where it stands, for /status.
  void InPlaceState(const std::string& state);
  // `pod` resized through pods/resize: an Event on the target.
  void ResizedInPlace(const std::string& pod,
                      const std::vector<ResourceChange>& changes,
                      const VerticalCounts& counts, const std::string& cause);
  // `pod`'s resize came back `state`: replacing pods instead (`instead`
  // says how); a Warning Event on the target.
  void FellBack(const std::string& pod, kube::ResizeState state,
                const std::string& message, const std::string& instead);
  // The server does not serve pods/resize: a Warning Event on the target.
  void InPlaceUnavailable();
  void CycleFinished(TimePoint start, const Status& status);

 private:
  const Clock* clock_;
  const std::string namespace_;
  const std::string configmap_;
  const kube::WorkloadRef target_;

  // An Event on the target.
  void TargetEvent(bool warning, const std::string& reason,
                   const std::string& message);
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_REPORTER_H_
