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
  void CycleFinished(TimePoint start, const Status& status);

 private:
  const Clock* clock_;
  const std::string namespace_;
  const std::string configmap_;
  const kube::WorkloadRef target_;
};

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_REPORTER_H_
