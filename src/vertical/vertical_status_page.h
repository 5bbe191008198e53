// Vertical mode's /status page: the counts, the config in force (or the
// error of the last rejected one), each configured container resource's
// computed and current value, decreases held back, pictures of nodes, cores
// and each resource over time, and the last changes.
// Pure: status in, HTML out.
#ifndef PROPSCALER_VERTICAL_VERTICAL_STATUS_PAGE_H_
#define PROPSCALER_VERTICAL_VERTICAL_STATUS_PAGE_H_

#include <chrono>
#include <optional>
#include <string>

#include "runtime/status_html.h"
#include "vertical/vertical_status.h"

namespace propscaler {

std::string RenderVerticalStatusPage(const VerticalStatus& status,
                                     std::chrono::system_clock::time_point now,
                                     const runtime::PageHead& head = {});

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_STATUS_PAGE_H_
