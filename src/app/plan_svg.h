// `propscaler plan --format=svg`: a self-contained SVG line chart of the
// replicas against the number of nodes (at the plan's cores per node; the
// node axis is logarithmic from 100 nodes up), drawn as steps, with the
// min/max clamps and the preventSinglePointFailure floor as labelled dashed
// lines and the stretches they decide highlighted on the curve.
#ifndef PROPSCALER_APP_PLAN_SVG_H_
#define PROPSCALER_APP_PLAN_SVG_H_

#include <string>
#include <vector>

#include "replicas/params.h"
#include "replicas/plan_table.h"
#include "vertical/vertical_config.h"
#include "vertical/vertical_plan.h"

namespace propscaler {

// A corner of the step line, in data space.
struct StepPoint {
  int64_t nodes = 0;
  int64_t replicas = 0;
  bool operator==(const StepPoint&) const = default;
};

// The corners of the step line through `curve` (PlanCurve's rows): the
// first row, then at each change the old and the new count at that size,
// and the last row.
std::vector<StepPoint> StepLinePoints(const std::vector<PlanRow>& curve);

// The whole document, ending in a newline. `curve` must not be empty.
std::string PlanSvg(const Params& params, const PlanRange& range,
                    const std::vector<PlanRow>& curve);

// Vertical mode's: one panel per configured resource, its value (as written)
// against the number of nodes, on the same node axis.
std::string VerticalPlanSvg(const VerticalConfig& config,
                            const VerticalPlan& plan);

}  // namespace propscaler

#endif  // PROPSCALER_APP_PLAN_SVG_H_
