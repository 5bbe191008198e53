// The params' curve as a picture (`propscaler plan --format=svg`, and
// replica mode's /status with the cluster's own point on it): a
// self-contained SVG line chart of the replicas against the number of nodes
// (at the plan's cores per node; the node axis is logarithmic from 100 nodes
// up), drawn as steps, with the min/max clamps and the
// preventSinglePointFailure floor as labelled dashed lines and the stretches
// they decide highlighted on the curve. Pure.
#ifndef PROPSCALER_REPLICAS_PARAMS_SVG_H_
#define PROPSCALER_REPLICAS_PARAMS_SVG_H_

#include <optional>
#include <string>
#include <vector>

#include "replicas/params.h"
#include "replicas/plan_table.h"

namespace propscaler {

// The frame every plan chart shares (vertical mode's panels too).
struct PlanChartFrame {
  double width = 860;
  double plot_left = 70;
  double plot_right = 830;
  double plot_top = 90;
  const char* curve_color = "#1f5fa8";
};
inline constexpr PlanChartFrame kPlanChart;

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
// `now`, when given, is marked: where the cluster is.
std::string PlanSvg(const Params& params, const PlanRange& range,
                    const std::vector<PlanRow>& curve,
                    const std::optional<StepPoint>& now = std::nullopt);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_PARAMS_SVG_H_
