// What one node-scale iteration's decision (plan/iteration.h) and the
// executor's outcomes of its steps tell people, through the reporter and
// the log: the capacity given up (ScaleUpTimedOut, DeleteUnregistered),
// the requests' consuming pods told and rooms provisioned, the claims, the
// cluster's health, the atomic scale-ups given back or asked for, the
// scale-up asked for (TriggeredScaleUp, NotTriggerScaleUp, how long each
// pod waited), what scale-down waits for, and Karpenter's disruption (its
// plan's allowances and blocked candidates, its command started,
// validated, launched or failed). Decides nothing.
#ifndef PROPSCALER_NODESCALE_REPORT_ITERATION_REPORT_H_
#define PROPSCALER_NODESCALE_REPORT_ITERATION_REPORT_H_

#include <cstdint>

#include "common/clock.h"
#include "kube/model/volumes.h"
#include "nodescale/plan/iteration.h"
#include "nodescale/plan/loop_memory.h"
#include "nodescale/report/node_scale_reporter.h"

namespace propscaler::nodescale {

struct IterationReportInput {
  const IterationDecision* decision = nullptr;
  const IterationOutcomes* outcomes = nullptr;
  const LoopMemory* memory = nullptr;
  const SharedPods* pods = nullptr;
  const kube::VolumeObjects* volumes = nullptr;
  int64_t unschedulable = 0;  // pending pods marked unschedulable
  TimePoint now;              // the iteration's
  TimePoint written_at;       // after its writes: how long pods waited
  bool provisioning_requests = false;
};

void ReportIteration(const NodeScaleReporter& reporter,
                     const IterationReportInput& input);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_REPORT_ITERATION_REPORT_H_
