// Vertical mode's /status page: the counts, the config in force (or the
// error of the last rejected one), each configured container resource's
// computed and current value, decreases held back, and the last changes.
// Pure: status in, HTML out.
#ifndef PROPSCALER_VERTICAL_VERTICAL_STATUS_PAGE_H_
#define PROPSCALER_VERTICAL_VERTICAL_STATUS_PAGE_H_

#include <chrono>
#include <optional>
#include <string>

#include "kube/controllers/leader_election.h"
#include "vertical/vertical_status.h"

namespace propscaler {

std::string RenderVerticalStatusPage(
    const VerticalStatus& status, std::chrono::system_clock::time_point now,
    const std::optional<kube::LeaderView>& leader = std::nullopt);

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_STATUS_PAGE_H_
