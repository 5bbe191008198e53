// Node-scale mode's /status page: health, each node group's sizes and
// backoff, the last scale-up and scale-down, and disruption's commands in
// flight and the candidates held back with why (what the propscaler-status
// ConfigMap says), the CapacityBuffers, and pictures over time of pending
// pods, the groups' targets and ready nodes with the scale-ups and removals
// marked. Pure: report in, HTML out.
#ifndef PROPSCALER_NODESCALE_REPORT_STATUS_PAGE_H_
#define PROPSCALER_NODESCALE_REPORT_STATUS_PAGE_H_

#include <optional>
#include <string>

#include "nodescale/report/status_report.h"
#include "runtime/status_html.h"

namespace propscaler::nodescale {

std::string RenderStatusPage(const StatusReport& report,
                             const runtime::PageHead& head = {});

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_REPORT_STATUS_PAGE_H_
