// Where the steps of a decision that Karpenter times begin and end: the
// scheduling simulation of a scale-up (scheduler_scheduling_duration_
// seconds) and each disruption method's evaluation (voluntary_disruption_
// decision_evaluation_duration_seconds); and how long a step bounded in
// time has taken so far (the check-capacity batch's timebox). The plan
// calls it where it is set and reads no clock; the run layer's timer does.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_DECISION_TIMER_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_DECISION_TIMER_H_

#include "common/clock.h"
#include "nodescale/plan/disruption/disruption_command.h"

namespace propscaler::nodescale {

class DecisionTimer {
 public:
  virtual ~DecisionTimer() = default;
  // A timed step starts.
  virtual void Begin() = 0;
  // The step begun last was the scale-up's scheduling simulation.
  virtual void Scheduled() = 0;
  // The step begun last was `method`'s evaluation, with or without a
  // command.
  virtual void Evaluated(DisruptionMethod method) = 0;
  // Since the step begun last began.
  virtual Duration Elapsed() const = 0;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_DECISION_TIMER_H_
