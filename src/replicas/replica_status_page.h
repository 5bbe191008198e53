// Replica mode's read-only HTML page at /status: counts, params in force
// (and the last rejected ones with the reason), each target's desired and
// current replicas, pictures of replicas, nodes and cores over time and of
// where the cluster sits on the params' curve, and the last decisions with
// their time and cause. Pure: status in, HTML out.
#ifndef PROPSCALER_REPLICAS_REPLICA_STATUS_PAGE_H_
#define PROPSCALER_REPLICAS_REPLICA_STATUS_PAGE_H_

#include <chrono>
#include <optional>
#include <string>

#include "replicas/replica_status.h"
#include "runtime/status_html.h"

namespace propscaler {

// The page says under its title who leads when `head.leader` is set
// (leader election on), and what the loop waits for.
std::string RenderReplicaStatusPage(const ReplicaStatus& status,
                                    std::chrono::system_clock::time_point now,
                                    const runtime::PageHead& head = {});

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_REPLICA_STATUS_PAGE_H_
