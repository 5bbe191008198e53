// Replica mode's read-only HTML page at /status: counts, params in force
// (and the last rejected ones with the reason), each target's desired and
// current replicas, and the last decisions with their time and cause. Pure:
// status in, HTML out.
#ifndef PROPSCALER_REPLICAS_REPLICA_STATUS_PAGE_H_
#define PROPSCALER_REPLICAS_REPLICA_STATUS_PAGE_H_

#include <chrono>
#include <optional>
#include <string>

#include "kube/controllers/leader_election.h"
#include "replicas/replica_status.h"

namespace propscaler {

// The page says under its title who leads when `leader` is set (leader
// election on): this replica, or which one while this one stands by.
std::string RenderReplicaStatusPage(
    const ReplicaStatus& status, std::chrono::system_clock::time_point now,
    const std::optional<kube::LeaderView>& leader = std::nullopt);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_REPLICA_STATUS_PAGE_H_
