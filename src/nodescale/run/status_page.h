// Node-scale mode's /status page: health, each node group's sizes and
// backoff, the last scale-up and scale-down, and disruption's commands in
// flight and the candidates held back with why (what the propscaler-status
// ConfigMap says), and the CapacityBuffers. Pure: report in, HTML out.
#ifndef PROPSCALER_NODESCALE_RUN_STATUS_PAGE_H_
#define PROPSCALER_NODESCALE_RUN_STATUS_PAGE_H_

#include <optional>
#include <string>

#include "kube/controllers/leader_election.h"
#include "nodescale/run/status_report.h"

namespace propscaler::nodescale {

std::string RenderStatusPage(
    const StatusReport& report,
    const std::optional<kube::LeaderView>& leader = std::nullopt);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_STATUS_PAGE_H_
