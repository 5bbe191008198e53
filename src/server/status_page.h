// The read-only HTML page at /status: counts, params in force (and the last
// rejected ones with the reason), each target's desired and current
// replicas, and the last decisions with their time and cause. Pure: status
// in, HTML out.
#ifndef PROPSCALER_SERVER_STATUS_PAGE_H_
#define PROPSCALER_SERVER_STATUS_PAGE_H_

#include <chrono>
#include <optional>
#include <string>

#include "kube/leader_election.h"
#include "nodescale/run/status_report.h"
#include "replicas/replica_status.h"
#include "vertical/vertical_status.h"

namespace propscaler {

// Every page says under its title who leads when `leader` is set (leader
// election on): this replica, or which one while this one stands by.
std::string RenderStatusPage(
    const ReplicaStatus& status, std::chrono::system_clock::time_point now,
    const std::optional<kube::LeaderView>& leader = std::nullopt);

// Vertical mode's: the counts, the config in force (or the error of the
// last rejected one), each configured container resource's computed and
// current value, decreases held back, and the last changes.
std::string RenderVerticalStatusPage(
    const VerticalStatus& status, std::chrono::system_clock::time_point now,
    const std::optional<kube::LeaderView>& leader = std::nullopt);

// Node-scale mode's: health, each node group's sizes and backoff, the last
// scale-up and scale-down, and disruption's commands in flight and the
// candidates held back with why (what the propscaler-status ConfigMap says).
std::string RenderNodeScaleStatusPage(
    const nodescale::StatusReport& report,
    const std::optional<kube::LeaderView>& leader = std::nullopt);

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_STATUS_PAGE_H_
