// The read-only HTML page at /status: counts, params in force (and the last
// rejected ones with the reason), each target's desired and current
// replicas, and the last decisions with their time and cause. Pure: status
// in, HTML out.
#ifndef PROPSCALER_SERVER_STATUS_PAGE_H_
#define PROPSCALER_SERVER_STATUS_PAGE_H_

#include <chrono>
#include <string>

#include "replicas/replica_status.h"

namespace propscaler {

std::string RenderStatusPage(const ReplicaStatus& status,
                             std::chrono::system_clock::time_point now);

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_STATUS_PAGE_H_
