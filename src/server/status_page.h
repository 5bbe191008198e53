// The read-only HTML page at /status: counts, params in force (and the last
// rejected ones with the reason), each target's desired and current
// replicas, and the last decisions with their time and cause. Pure: status
// in, HTML out.
#ifndef PROPSCALER_SERVER_STATUS_PAGE_H_
#define PROPSCALER_SERVER_STATUS_PAGE_H_

#include <chrono>
#include <string>

#include "replicas/replica_status.h"
#include "vertical/vertical_status.h"

namespace propscaler {

std::string RenderStatusPage(const ReplicaStatus& status,
                             std::chrono::system_clock::time_point now);

// Vertical mode's: the counts, the config in force (or the error of the
// last rejected one), each configured container resource's computed and
// current value, decreases held back, and the last changes.
std::string RenderVerticalStatusPage(const VerticalStatus& status,
                                     std::chrono::system_clock::time_point now);

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_STATUS_PAGE_H_
