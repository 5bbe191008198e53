// The text of the propscaler-status ConfigMap, human-readable like CA's
// cluster-autoscaler-status: health, each group's min/max/target/ready/
// upcoming/backoff, the last scale-up and scale-down. Pure rendering plus
// the write (create or update) at the edge. The write reads the ConfigMap
// fresh each time and caches nothing, so it needs no runtime::WatchedObject
// (its text is propscaler's own; the update carries the version read).
#ifndef PROPSCALER_NODESCALE_RUN_STATUS_REPORT_H_
#define PROPSCALER_NODESCALE_RUN_STATUS_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "kube/client/client.h"

namespace propscaler::nodescale {

inline constexpr char kStatusConfigMap[] = "propscaler-status";

struct GroupStatus {
  std::string name;
  int64_t min = 0;
  int64_t max = 0;
  int64_t target = 0;
  int64_t ready = 0;
  int64_t unready = 0;      // not Ready, and not coming (node_health.h)
  int64_t not_started = 0;  // registered, not Ready yet
  int64_t upcoming = 0;
  TimePoint backoff_until;  // epoch: not backed off (now)
};

struct StatusReport {
  TimePoint time;
  std::string health;  // "Healthy", or what is wrong
  std::vector<GroupStatus> groups;
  std::string last_scale_up = "never";
  std::string last_scale_down = "never";
  // Karpenter-style disruption: commands in flight and candidates held back.
  std::vector<std::string> disruption_commands;
  std::vector<std::string> disruption_blocked;
  // CapacityBuffers: "namespace/name: what it holds, or why not".
  std::vector<std::string> buffers;
  // ProvisioningRequests: "namespace/name (class): where it stands".
  std::vector<std::string> provisioning_requests;
};

std::string RenderStatus(const StatusReport& report);

// Creates or updates ConfigMap `ns`/propscaler-status with key "status".
Status WriteStatusConfigMap(const kube::ConfigMapClient& api,
                            const std::string& ns, const std::string& text);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_STATUS_REPORT_H_
