// `propscaler plan --format=svg` for vertical mode: one panel per
// configured resource, its value (as written) against the number of nodes,
// on the frame and node axis of replica mode's chart (replicas/params_svg.h).
#ifndef PROPSCALER_APP_PLAN_SVG_H_
#define PROPSCALER_APP_PLAN_SVG_H_

#include <string>

#include "vertical/vertical_config.h"
#include "vertical/vertical_plan.h"

namespace propscaler {

std::string VerticalPlanSvg(const VerticalConfig& config,
                            const VerticalPlan& plan);

}  // namespace propscaler

#endif  // PROPSCALER_APP_PLAN_SVG_H_
