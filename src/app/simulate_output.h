// Rendering of a simulated plan: the JSON of `propscaler simulate
// --output=json`, and a table for people.
#ifndef PROPSCALER_APP_SIMULATE_OUTPUT_H_
#define PROPSCALER_APP_SIMULATE_OUTPUT_H_

#include <string>

#include "nodescale/plan/scale_down.h"
#include "nodescale/plan/scale_up.h"

namespace propscaler {

// {"scaleUp":[{"nodeGroup","delta","pods"}],
//  "unschedulable":[{"pod","reasons":{group:reason}}],
//  "scaleDown":[{"node","nodeGroup","reason":"empty"|"underutilized"}]}
std::string SimulationJson(const nodescale::ScaleUpPlan& up,
                           const nodescale::ScaleDownPlan& down);

std::string SimulationTable(const nodescale::ScaleUpPlan& up,
                            const nodescale::ScaleDownPlan& down);

}  // namespace propscaler

#endif  // PROPSCALER_APP_SIMULATE_OUTPUT_H_
