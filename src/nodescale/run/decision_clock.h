// The run layer's DecisionTimer: reads the loop's clock where Decide says a
// step begins and ends and hands each step's time to the reporter
// (Karpenter's scheduling and evaluation durations), and how long the
// step begun last has taken. One per Decide call.
#ifndef PROPSCALER_NODESCALE_RUN_DECISION_CLOCK_H_
#define PROPSCALER_NODESCALE_RUN_DECISION_CLOCK_H_

#include "common/clock.h"
#include "nodescale/plan/disruption/decision_timer.h"
#include "nodescale/report/node_scale_reporter.h"

namespace propscaler::nodescale {

class DecisionClock : public DecisionTimer {
 public:
  DecisionClock(const Clock* clock, const NodeScaleReporter* reporter)
      : clock_(clock), reporter_(reporter) {}

  void Begin() override { began_ = clock_->Now(); }
  void Scheduled() override {
    reporter_->SchedulingTook(clock_->Now() - began_);
  }
  void Evaluated(DisruptionMethod method) override {
    reporter_->EvaluationTook(method, clock_->Now() - began_);
  }
  Duration Elapsed() const override { return clock_->Now() - began_; }

 private:
  const Clock* clock_;
  const NodeScaleReporter* reporter_;
  TimePoint began_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_DECISION_CLOCK_H_
