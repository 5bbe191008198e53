// Rendering of a simulated plan: the JSON of `propscaler simulate
// --output=json`, and a table for people.
#ifndef PROPSCALER_APP_SIMULATE_OUTPUT_H_
#define PROPSCALER_APP_SIMULATE_OUTPUT_H_

#include <optional>
#include <string>
#include <vector>

#include "app/claim_preview.h"
#include "app/simulate_provisioning.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_up/scale_up.h"

namespace propscaler {

// {"scaleUp":[{"nodeGroup","delta","pods","nodes":[{"pods":[...]}]}],
//  "unschedulable":[{"pod","reasons":{group:reason}}],
//  "scaleDown":[{"node","nodeGroup","reason":"empty"|"underutilized"}],
//  "disruption":[{"method","action":"delete"|"replace","nodes":[...],
//                 "replacement":{"nodeGroup","count"}|null,
//                 "savingsPerHour"}],
//  "disruptionBlocked":[{"node","method","reason"}],
//  "provisioningRequests":[{"request","class","pods","result"}]}
// (the last with --provisioning-requests only). With NodePools (`claims`
// set) the scale-up is theirs: the node claims, the existing nodes pods
// land on and the order they land in, and what fits no NodePool
// (claim_preview.h), after an empty scaleUp.
std::string SimulationJson(
    const nodescale::ScaleUpPlan& up, const nodescale::ScaleDownPlan& down,
    const nodescale::DisruptionPlan& disruption,
    const std::optional<std::vector<ProvReqPreview>>& requests,
    const ClaimPreview* claims = nullptr);

std::string SimulationTable(
    const nodescale::ScaleUpPlan& up, const nodescale::ScaleDownPlan& down,
    const nodescale::DisruptionPlan& disruption,
    const std::optional<std::vector<ProvReqPreview>>& requests,
    const ClaimPreview* claims = nullptr);

}  // namespace propscaler

#endif  // PROPSCALER_APP_SIMULATE_OUTPUT_H_
